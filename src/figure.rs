//! What the figures of `sow` share (plots and board diagrams): the shipped font, sizes in
//! print units with a type scale in points, text measured as that font sets it, and
//! output as SVG, PDF (the font embedded) or PNG.
//!
//! A figure is written as SVG whose user unit is the point at print size: its `width`
//! and `height` are in millimetres and its `viewBox` in points, so `font-size="8"`
//! prints at 8 pt. PDF and PNG are made from that SVG by usvg with a font database that
//! holds only the shipped font, so that every format shows the same glyphs; the SVG
//! names the font's family first. This module never draws data: it knows no game.

use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The family of the shipped font, as SVG names it.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// The `font-family` of every figure: the shipped font, then the generic family.
pub const FONT_FAMILY_LIST: &str = "'DejaVu Sans', sans-serif";

/// DejaVu Sans (fonts/LICENSE), cut to the characters of the figures (fonts/README.md).
pub static FONT_REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold, cut as [`FONT_REGULAR`].
pub static FONT_BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

/// Points per millimetre.
pub const PT_PER_MM: f64 = 72.0 / 25.4;

/// The smallest type of a figure at print size, in points.
pub const MIN_TYPE_PT: f64 = 7.0;

/// A figure's size at print, in millimetres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PrintSize {
    pub width_mm: f64,
    pub height_mm: f64,
}

/// The named widths `--width` takes, with their heights: a journal's single and double
/// column, and a 16:9 slide.
pub const PRESETS: [(&str, PrintSize); 3] = [
    (
        "single",
        PrintSize {
            width_mm: 84.0,
            height_mm: 63.0,
        },
    ),
    (
        "double",
        PrintSize {
            width_mm: 174.0,
            height_mm: 104.0,
        },
    ),
    (
        "slide",
        PrintSize {
            width_mm: 254.0,
            height_mm: 142.9,
        },
    ),
];

/// Widths a figure may have, in millimetres: from a narrow column to a poster.
const WIDTHS_MM: std::ops::RangeInclusive<f64> = 40.0..=1200.0;

impl PrintSize {
    /// A journal's single column.
    pub const SINGLE: PrintSize = PRESETS[0].1;

    /// The size `--width` and `--height` say: a width is a preset name or a length
    /// (`84mm`, `8.4cm`, `3.3in`, `238pt`, `640px` at 96 px an inch, a bare number in
    /// px); without a height, the preset's, or three quarters of the width.
    pub fn parse(width: &str, height: Option<&str>) -> Result<PrintSize, String> {
        let preset = PRESETS.iter().find(|(name, _)| *name == width.trim());
        let width_mm = match preset {
            Some((_, size)) => size.width_mm,
            None => length_mm(width).map_err(|why| format!("--width {width:?}: {why}"))?,
        };
        let height_mm = match (height, preset) {
            (Some(h), _) => length_mm(h).map_err(|why| format!("--height {h:?}: {why}"))?,
            (None, Some((_, size))) => size.height_mm,
            (None, None) => width_mm * 0.75,
        };
        let size = PrintSize {
            width_mm,
            height_mm,
        };
        size.check()?;
        Ok(size)
    }

    /// Refuses a size no figure can be drawn in.
    pub fn check(&self) -> Result<(), String> {
        let (w, h) = (self.width_mm, self.height_mm);
        if !WIDTHS_MM.contains(&w) || !(0.25 * w..=2.0 * w).contains(&h) || h < 30.0 {
            return Err(format!(
                "a figure of {w:.1} x {h:.1} mm cannot be drawn: the width from {} to {} mm (single: 84mm, double: 174mm, slide: 254mm), the height at least 30 mm and from a quarter to twice the width",
                WIDTHS_MM.start(),
                WIDTHS_MM.end()
            ));
        }
        Ok(())
    }

    pub fn width_pt(&self) -> f64 {
        self.width_mm * PT_PER_MM
    }

    pub fn height_pt(&self) -> f64 {
        self.height_mm * PT_PER_MM
    }

    /// The size of the smallest type (tick labels, keys), in points: 7.5 pt in a column,
    /// growing with the width so that a slide reads from the back of a room.
    pub fn type_pt(&self) -> f64 {
        let w = self.width_mm;
        let pt = if w <= 84.0 {
            7.5
        } else if w <= 174.0 {
            7.5 + (w - 84.0) / 90.0 * 1.5
        } else {
            9.0 + (w - 174.0) / 80.0 * 5.0
        };
        pt.max(MIN_TYPE_PT)
    }

    /// The width of a data line, in points: in step with the type.
    pub fn line_pt(&self) -> f64 {
        self.type_pt() * 0.15
    }

    /// The SVG root's size attributes: `width="84mm" height="63mm" viewBox="0 0 W H"`,
    /// the view box in points.
    pub fn svg_size(&self) -> String {
        format!(
            r#"width="{}mm" height="{}mm" viewBox="0 0 {} {}""#,
            num(self.width_mm),
            num(self.height_mm),
            num(self.width_pt()),
            num(self.height_pt())
        )
    }
}

/// A length in millimetres from `84mm`, `8.4cm`, `3.3in`, `238pt` or `640px` (a bare
/// number is in px, 96 an inch).
fn length_mm(text: &str) -> Result<f64, String> {
    let text = text.trim();
    let split = text
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let value: f64 = number
        .trim()
        .parse()
        .ok()
        .filter(|v: &f64| v.is_finite() && *v > 0.0)
        .ok_or("not a positive number with a unit (mm, cm, in, pt, px) or single, double, slide")?;
    let per = match unit.trim() {
        "mm" => 1.0,
        "cm" => 10.0,
        "in" => 25.4,
        "pt" => 25.4 / 72.0,
        "px" | "" => 25.4 / 96.0,
        u => return Err(format!("unknown unit {u:?} (mm, cm, in, pt, px)")),
    };
    Ok(value * per)
}

/// A number for SVG: at most two decimals, no trailing zeros.
pub fn num(v: f64) -> String {
    let s = format!("{v:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    match s {
        "-0" => "0".to_string(),
        s => s.to_string(),
    }
}

fn face(bold: bool) -> &'static ttf_parser::Face<'static> {
    static FACES: OnceLock<[ttf_parser::Face<'static>; 2]> = OnceLock::new();
    let faces = FACES.get_or_init(|| {
        [FONT_REGULAR, FONT_BOLD]
            .map(|data| ttf_parser::Face::parse(data, 0).expect("the shipped font parses"))
    });
    &faces[usize::from(bold)]
}

/// The advance width of a text set in the shipped font at `size`, in the units of
/// `size`. A character the font lacks is shown as U+FFFD, as wide.
pub fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let face = face(bold);
    let em = face.units_per_em() as f64;
    let fallback = face.glyph_index('\u{fffd}');
    let units: f64 = text
        .chars()
        .map(|c| {
            let glyph = face.glyph_index(c).or(fallback);
            glyph.and_then(|g| face.glyph_hor_advance(g)).unwrap_or(0) as f64
        })
        .sum();
    units / em * size
}

/// How far a line of text at `size` reaches above its baseline and below it (the font's
/// ascender and descender), in the units of `size`.
pub fn text_extent(size: f64) -> (f64, f64) {
    let face = face(false);
    let em = face.units_per_em() as f64;
    (
        face.ascender() as f64 / em * size,
        -(face.descender() as f64) / em * size,
    )
}

/// Breaks a text into lines no wider than `width` at `size`, at spaces; a word wider
/// than the line stands on a line of its own.
pub fn wrap(text: &str, size: f64, bold: bool, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        let tried = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || text_width(&tried, size, bold) <= width {
            line = tried;
        } else {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The formats a figure is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    /// PDF, the font embedded.
    Pdf,
    /// PNG at a chosen resolution.
    Png,
}

impl Format {
    /// The format a file name's extension says, if it names one.
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "svg" => Some(Format::Svg),
            "pdf" => Some(Format::Pdf),
            "png" => Some(Format::Png),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Pdf => "pdf",
            Format::Png => "png",
        }
    }

    /// The format of an output: the one its extension names, which a `--format` given
    /// must agree with; else the one given, else SVG.
    pub fn choose(path: Option<&Path>, given: Option<Format>) -> Result<Format, String> {
        let named = path.and_then(Format::of_path);
        match (named, given) {
            (Some(named), Some(given)) if named != given => Err(format!(
                "the output {} is named as {} but --format says {}",
                path.map(|p| p.display().to_string()).unwrap_or_default(),
                named.name().to_uppercase(),
                given.name().to_uppercase()
            )),
            (Some(f), _) | (None, Some(f)) => Ok(f),
            (None, None) => Ok(Format::Svg),
        }
    }
}

/// usvg's options with a font database of the shipped font alone, which also serves
/// the generic `sans-serif`.
pub fn usvg_options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(FONT_REGULAR.to_vec());
        fonts.load_font_data(FONT_BOLD.to_vec());
        fonts.set_sans_serif_family(FONT_FAMILY);
        usvg::Options {
            font_family: FONT_FAMILY.to_string(),
            fontdb: Arc::new(fonts),
            ..usvg::Options::default()
        }
    })
}

/// Resolutions a PNG may have, in dots per inch.
pub const DPI: std::ops::RangeInclusive<f64> = 36.0..=2400.0;

/// The figure in a format: SVG as it is, PDF with the font embedded and the page the
/// figure's print size, PNG at `dpi`.
pub fn encode(svg: String, format: Format, dpi: f64) -> Result<Vec<u8>, String> {
    if format == Format::Svg {
        return Ok(svg.into_bytes());
    }
    let tree = usvg::Tree::from_str(&svg, usvg_options())
        .map_err(|e| format!("cannot read the figure: {e}"))?;
    // The tree holds the figure: its text (that of a long game is tens of megabytes) is
    // not needed while the tree is drawn.
    drop(svg);
    match format {
        Format::Svg => unreachable!("returned above"),
        Format::Pdf => {
            // usvg gives sizes in CSS px, 96 an inch: the page keeps the print size.
            let page = svg2pdf::PageOptions { dpi: 96.0 };
            svg2pdf::to_pdf(&tree, svg2pdf::ConversionOptions::default(), page)
                .map_err(|e| format!("cannot write the PDF: {e}"))
        }
        Format::Png => {
            if !DPI.contains(&dpi) {
                return Err(format!(
                    "--dpi {dpi} is out of range ({} to {})",
                    DPI.start(),
                    DPI.end()
                ));
            }
            let scale = (dpi / 96.0) as f32;
            let size = tree.size().to_int_size().scale_by(scale);
            let too_large = || {
                format!(
                    "a PNG of this size at {dpi} dpi is too large (at most 20000 pixels a side)"
                )
            };
            let size = size.filter(|s| s.width() <= 20_000 && s.height() <= 20_000);
            let size = size.ok_or_else(too_large)?;
            let mut pixmap =
                resvg::tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(too_large)?;
            pixmap.fill(resvg::tiny_skia::Color::WHITE);
            let transform = resvg::tiny_skia::Transform::from_scale(scale, scale);
            resvg::render(&tree, transform, &mut pixmap.as_mut());
            pixmap
                .encode_png()
                .map_err(|e| format!("cannot write the PNG: {e}"))
        }
    }
}

/// Escapes text for SVG content and attribute values.
pub fn escape(text: &str) -> String {
    crate::diagram::xml_escape(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_presets() {
        let s = PrintSize::parse("84mm", None).unwrap();
        assert_eq!((s.width_mm, s.height_mm), (84.0, 63.0));
        assert_eq!(PrintSize::parse("double", None).unwrap().width_mm, 174.0);
        assert_eq!(
            PrintSize::parse("8.4cm", Some("5cm")).unwrap().height_mm,
            50.0
        );
        assert!((PrintSize::parse("640", Some("400")).unwrap().width_mm - 169.33).abs() < 0.01);
        assert!(PrintSize::parse("3furlongs", None).is_err());
        assert!(PrintSize::parse("5mm", None).is_err());
        assert!(PrintSize::parse("-84mm", None).is_err());
        assert!(PrintSize::parse("84mm", Some("1mm")).is_err());
    }

    #[test]
    fn type_never_falls_below_seven_points() {
        for w in [40.0, 84.0, 120.0, 174.0, 254.0, 1200.0] {
            let s = PrintSize {
                width_mm: w,
                height_mm: w * 0.6,
            };
            assert!(s.type_pt() >= MIN_TYPE_PT, "{w}");
        }
    }

    #[test]
    fn the_format_follows_the_extension() {
        let p = |s: &str| Some(Path::new(s).to_path_buf());
        assert_eq!(Format::choose(p("a.PDF").as_deref(), None), Ok(Format::Pdf));
        assert_eq!(
            Format::choose(p("a.png").as_deref(), Some(Format::Png)),
            Ok(Format::Png)
        );
        assert_eq!(
            Format::choose(p("a.out").as_deref(), Some(Format::Png)),
            Ok(Format::Png)
        );
        assert_eq!(Format::choose(None, None), Ok(Format::Svg));
        assert!(Format::choose(p("a.png").as_deref(), Some(Format::Svg)).is_err());
    }

    #[test]
    fn text_is_measured_and_wrapped_in_the_font() {
        // DejaVu Sans's digits are 0.636 em wide.
        assert!((text_width("10", 10.0, false) - 12.72).abs() < 0.01);
        assert!(text_width("ŋɛɔ", 10.0, false) > 15.0);
        let lines = wrap("Bao la Kimasai: material of twelve games", 8.0, true, 80.0);
        assert!(lines.len() >= 2, "{lines:?}");
        assert!(lines.iter().all(|l| text_width(l, 8.0, true) <= 80.0));
        assert!(wrap("", 8.0, false, 80.0).is_empty());
    }
}
