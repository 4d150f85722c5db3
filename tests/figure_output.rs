//! Figures as files: `-o fig.pdf` is a PDF whose objects are where its cross-reference
//! table says, with the shipped font embedded (a TrueType program that parses);
//! `-o fig.png` decodes at the size the print width and `--dpi` give; the format follows
//! the extension, and a `--format` that disagrees is refused before anything is written.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn kiothi() -> PathBuf {
    root().join("records/examples/kiothi.pmn")
}

fn sow() -> Command {
    Command::cargo_bin("sow").unwrap()
}

/// The objects of a PDF by number, each checked to start where the cross-reference
/// table says: (number, the bytes from `N 0 obj` to `endobj`).
fn objects(pdf: &[u8]) -> Vec<(usize, &[u8])> {
    assert!(pdf.starts_with(b"%PDF-1."), "a PDF header");
    let at = (pdf.windows(9).rposition(|w| w == b"startxref")).expect("startxref");
    let tail = String::from_utf8_lossy(&pdf[at + 9..]);
    assert!(tail.trim_end().ends_with("%%EOF"), "a PDF trailer");
    let start: usize = tail.split_whitespace().next().unwrap().parse().unwrap();
    // The table is text: offsets are of the bytes.
    let table = String::from_utf8_lossy(&pdf[start..at]);
    assert!(table.starts_with("xref"), "startxref points at the table");
    let mut lines = table.lines().skip(1);
    let header: Vec<usize> = (lines.next().unwrap().split_whitespace())
        .map(|n| n.parse().unwrap())
        .collect();
    let (first, count) = (header[0], header[1]);
    let mut out = Vec::new();
    for (i, line) in lines.take(count).enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields[2] != "n" {
            continue;
        }
        let offset: usize = fields[0].parse().unwrap();
        let number = first + i;
        let head = format!("{number} 0 obj");
        assert!(
            pdf[offset..].starts_with(head.as_bytes()),
            "object {number} at {offset}"
        );
        let end = find(&pdf[offset..], b"endobj").expect("endobj") + offset;
        out.push((number, &pdf[offset..end]));
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The stream of an object, inflated when it is deflated.
fn stream(object: &[u8]) -> Vec<u8> {
    let start = find(object, b"stream").unwrap() + b"stream".len();
    let start = start + usize::from(object[start] == b'\r') + 1;
    let dict = String::from_utf8_lossy(&object[..start]);
    let length: usize = (dict.split("/Length").nth(1).unwrap())
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let data = &object[start..start + length];
    if dict.contains("/FlateDecode") {
        miniz_oxide::inflate::decompress_to_vec_zlib(data).expect("a deflated stream")
    } else {
        data.to_vec()
    }
}

#[test]
fn a_pdf_embeds_the_shipped_font() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("fig.pdf");
    sow()
        .args(["plot", "--kind", "captures", "--width", "double"])
        .arg(kiothi())
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    let pdf = std::fs::read(&out).unwrap();
    let objects = objects(&pdf);
    let text = |o: &[u8]| String::from_utf8_lossy(o).into_owned();
    // The page is the print size: 174 mm is 493.23 pt.
    let page = (objects.iter())
        .find(|(_, o)| text(o).contains("/Type /Page\n") || text(o).contains("/Type /Page "))
        .expect("a page");
    assert!(text(page.1).contains("493.2"), "{}", text(page.1));
    let fonts: Vec<&(usize, &[u8])> = (objects.iter())
        .filter(|(_, o)| text(o).contains("/FontFile2"))
        .collect();
    assert!(!fonts.is_empty(), "an embedded TrueType font");
    for (_, descriptor) in fonts {
        let said = text(descriptor);
        assert!(said.contains("DejaVuSans"), "{said}");
        let number: usize = (said.split("/FontFile2").nth(1).unwrap())
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let program = (objects.iter())
            .find(|(n, _)| *n == number)
            .expect("the font's stream");
        let font = stream(program.1);
        let face = ttf_parser::Face::parse(&font, 0).expect("the embedded font parses");
        assert!(face.number_of_glyphs() > 5);
    }
}

#[test]
fn a_png_has_the_size_of_its_print_width_and_resolution() {
    let dir = tempfile::tempdir().unwrap();
    for (width, dpi, pixels) in [("84mm", 150, 496), ("double", 300, 2055)] {
        let out = dir.path().join(format!("fig-{dpi}.png"));
        sow()
            .args(["plot", "--kind", "length", "--width", width, "--dpi"])
            .arg(dpi.to_string())
            .arg(kiothi())
            .arg("-o")
            .arg(&out)
            .assert()
            .success();
        let decoder = png::Decoder::new(std::fs::File::open(&out).unwrap());
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert!(
            (info.width as i64 - pixels).abs() <= 1,
            "{width} at {dpi} dpi: {} px",
            info.width
        );
        // Something is drawn: dark pixels of text and axes.
        let dark = (buf.chunks(info.color_type.samples()))
            .filter(|p| p[0] < 80 && p[1] < 80 && p[2] < 80)
            .count();
        assert!(dark > 500, "{dark} dark pixels");
    }
}

#[test]
fn the_format_follows_the_extension_and_a_mismatch_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("fig.png");
    let refused = sow()
        .args(["plot", "--format", "svg"])
        .arg(kiothi())
        .arg("-o")
        .arg(&png)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("named as PNG but --format says SVG"),
        "{stderr}"
    );
    assert!(!png.exists());
    let svg = dir.path().join("fig.svg");
    sow()
        .args(["plot", "--format", "svg"])
        .arg(kiothi())
        .arg("-o")
        .arg(&svg)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    // A board diagram too.
    let pdf = dir.path().join("board.pdf");
    sow()
        .arg("show")
        .arg(kiothi())
        .arg("-o")
        .arg(&pdf)
        .assert()
        .success();
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    sow()
        .args(["show", "--format", "text"])
        .arg(kiothi())
        .arg("-o")
        .arg(dir.path().join("board.png"))
        .assert()
        .code(2);
}
