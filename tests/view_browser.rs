//! `sow view` in a real browser: headless Chromium driven through WebDriver
//! (chromedriver), with a small client over a TCP stream. Pages made from records/ are
//! opened from file://, and what they show is checked against the replay: the pit
//! counts of every ply, the keyboard, deep links, the error of every flawed record, no
//! request leaving the page, and no error on the console.
//!
//! Where Chromium or chromedriver is not installed (`.ci/run` installs both), the test
//! says so on the terminal and passes. `UPDATE_EXPECT=1` writes the screenshots of
//! docs/ (view-tsoro.png, ...).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::{json, Value};
use sow::pmn::parse_str;
use sow::replay::{replay, ReplayOptions, Trace};
use sow::Pit;

/// Said where the libtest harness cannot hide it: skipping must be seen.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// The program named by `env`, else the first of `names` found on PATH (or where
/// Debian puts Chromium).
fn find(env: &str, names: &[&str]) -> Option<PathBuf> {
    // A path given in the environment is the only one tried.
    if let Some(p) = std::env::var_os(env) {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .chain([
                PathBuf::from("/usr/bin"),
                PathBuf::from("/usr/lib/chromium"),
            ])
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
    })
}

const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1100,900",
];

/// A WebDriver session of a chromedriver this test started, ended with it.
struct Browser {
    driver: Child,
    port: u16,
    session: String,
    _profile: tempfile::TempDir,
}

/// One HTTP request to chromedriver; its JSON `value`, or the error it reports.
fn request(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    // A browser that stops answering fails the test instead of hanging it.
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    let body = body.map(Value::to_string).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .and_then(|_| stream.write_all(body.as_bytes()))
        .map_err(|e| e.to_string())?;
    let body = read_response(&mut stream)?;
    let value: Value = serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))?;
    let value = value["value"].clone();
    match value.get("error") {
        Some(error) => Err(format!("{error}: {}", value["message"])),
        None => Ok(value),
    }
}

/// The body of an HTTP response, read to its length: chromedriver keeps the connection
/// open.
fn read_response(stream: &mut TcpStream) -> Result<String, String> {
    let mut data = Vec::new();
    let mut buf = [0u8; 65536];
    let end_of_head = loop {
        if let Some(at) = data.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            return Err("the connection closed before the response's head".into());
        }
        data.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&data[..end_of_head]).to_ascii_lowercase();
    let length = head.lines().find_map(|l| {
        l.strip_prefix("content-length:")
            .and_then(|v| v.trim().parse::<usize>().ok())
    });
    let done = |data: &[u8]| match length {
        Some(n) => data.len() >= end_of_head + n,
        None => data.ends_with(b"0\r\n\r\n"),
    };
    while !done(&data) {
        let n = stream.read(&mut buf).map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let body = String::from_utf8_lossy(&data[end_of_head..]).into_owned();
    Ok(match length {
        Some(_) => body,
        None => unchunk(&body),
    })
}

fn unchunk(body: &str) -> String {
    let mut out = String::new();
    let mut rest = body;
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

impl Browser {
    fn start(chromium: &Path, chromedriver: &Path) -> Browser {
        // A free loopback port, let go just before chromedriver takes it.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Process::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let profile = tempfile::tempdir().unwrap();
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            _profile: profile,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while request(port, "GET", "/status", None).map_or(true, |v| v["ready"] != true) {
            assert!(Instant::now() < deadline, "chromedriver did not get ready");
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
        args.push(format!(
            "--user-data-dir={}",
            browser._profile.path().display()
        ));
        let caps = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": chromium, "args": args},
            "goog:loggingPrefs": {"browser": "ALL"},
        }}});
        let session = request(port, "POST", "/session", Some(&caps)).expect("a session");
        browser.session = session["sessionId"].as_str().unwrap().to_string();
        browser
    }

    fn call(&self, method: &str, what: &str, body: Option<Value>) -> Value {
        let path = format!("/session/{}/{what}", self.session);
        request(self.port, method, &path, body.as_ref())
            .unwrap_or_else(|e| panic!("{method} {what}: {e}"))
    }

    fn open(&self, url: &str) {
        self.call("POST", "url", Some(json!({ "url": url })));
    }

    fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            "execute/sync",
            Some(json!({"script": script, "args": []})),
        )
    }

    /// Presses and lets go a key (a WebDriver key code such as `\u{E014}`).
    fn key(&self, key: &str) {
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}
        ]}]});
        self.call("POST", "actions", Some(actions));
    }

    /// The game and ply the page is at.
    fn at(&self) -> (u64, u64) {
        let v = self.run("return [+document.body.dataset.game, +document.body.dataset.ply]");
        (v[0].as_u64().unwrap(), v[1].as_u64().unwrap())
    }

    /// Waits (up to five seconds) until the page is at the game and ply given: a change
    /// of the address's fragment alone is handled by the page's script after `open`
    /// returns.
    fn wait_at(&self, at: (u64, u64)) {
        for _ in 0..100 {
            if self.at() == at {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(self.at(), at, "the page did not reach the game and ply");
    }

    /// The browser's console since the last call: its errors.
    fn console_errors(&self) -> Vec<String> {
        let log = self.call("POST", "se/log", Some(json!({"type": "browser"})));
        (log.as_array().into_iter().flatten())
            .filter(|e| e["level"] == "SEVERE")
            .map(|e| e["message"].to_string())
            .collect()
    }

    fn screenshot(&self, path: &Path) {
        let png = self.call("GET", "screenshot", None);
        std::fs::write(path, base64(png.as_str().unwrap())).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, d) in chunk.iter().enumerate() {
            n |= (*d as u32) << (18 - 6 * i);
        }
        out.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Makes a page with `sow view`, run in the repository (the page names its files as
/// given).
fn make_page(inputs: &[PathBuf], out: &Path) {
    let inputs: Vec<&Path> = (inputs.iter())
        .map(|p| p.strip_prefix(root()).unwrap_or(p))
        .collect();
    Command::cargo_bin("sow")
        .unwrap()
        .current_dir(root())
        .arg("view")
        .args(inputs)
        .arg("-o")
        .arg(out)
        .arg("--force")
        .assert()
        .success();
}

fn url(page: &Path, hash: &str) -> String {
    format!("file://{}{hash}", page.display())
}

/// The games of the inputs, replayed, in the page's order.
fn traces(inputs: &[PathBuf]) -> Vec<Trace> {
    let options = ReplayOptions::full();
    inputs
        .iter()
        .flat_map(|file| {
            let text = std::fs::read_to_string(file).unwrap();
            parse_str(&text)
                .iter()
                .map(|g| replay(g, &options))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// What the page must say of each pit (its label and count) and prison after ply `k`.
fn expected_board(trace: &Trace, k: usize) -> Vec<(String, String)> {
    let rules = trace.rules.as_ref().unwrap();
    let pos = trace
        .position_after(k)
        .unwrap_or_else(|| trace.last.as_ref().unwrap());
    let plural = |n: u16| if n == 1 { "stone" } else { "stones" };
    let mut out: Vec<(String, String)> = (rules.board().pits())
        .map(|pit: Pit| {
            let n = pos.stones(pit);
            let mut label = format!("{pit}, {n} {}", plural(n));
            if rules.is_head(pit) {
                label.push_str(", head");
            }
            if pos.is_nki(pit) {
                label.push_str(", nki");
            }
            (label, n.to_string())
        })
        .collect();
    if rules.board().rows() == 2 {
        for (side, n) in [("South", pos.prisons()[0]), ("North", pos.prisons()[1])] {
            out.push((format!("{side} prison, {n} {}", plural(n)), n.to_string()));
        }
    }
    out.sort();
    out
}

/// What the page shows of each pit and prison: its label, and the count drawn.
fn shown_board(browser: &Browser) -> Vec<(String, String)> {
    let v = browser.run(
        "return Array.prototype.map.call(document.querySelectorAll('#board [data-count]'),
           function (g) { return [g.getAttribute('aria-label'),
             document.getElementById(g.getAttribute('data-count')).textContent]; })",
    );
    let mut out: Vec<(String, String)> = (v.as_array().unwrap().iter())
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

const RIGHT: &str = "\u{E014}";
const LEFT: &str = "\u{E012}";
const HOME: &str = "\u{E011}";
const END: &str = "\u{E010}";

fn no_request_left(browser: &Browser, what: &str) {
    let v = browser.run(
        "return [performance.getEntriesByType('resource').length,
          document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content]",
    );
    assert_eq!(v[0], 0, "{what}: a request left the page");
    assert!(
        v[1].as_str().unwrap().starts_with("default-src 'none'"),
        "{v}"
    );
    assert_eq!(browser.console_errors(), Vec::<String>::new(), "{what}");
}

#[test]
fn the_page_in_a_browser() {
    let chromium = find(
        "SOW_CHROMIUM",
        &["chromium", "chromium-browser", "google-chrome"],
    );
    let chromedriver = find("SOW_CHROMEDRIVER", &["chromedriver"]);
    let (Some(chromium), Some(chromedriver)) = (chromium, chromedriver) else {
        say("skipped: no chromium/chromedriver (the browser tests of sow view need both; .ci/run installs them)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let browser = Browser::start(&chromium, &chromedriver);

    // Every ply of every example, and of the first game of a generated file of each game.
    let examples: Vec<PathBuf> = ["bao-la-kimasai", "kiothi", "nsolo", "tsoro"]
        .iter()
        .map(|g| root().join(format!("records/examples/{g}.pmn")))
        .collect();
    let page = dir.path().join("examples.html");
    make_page(&examples, &page);
    let traces_of = traces(&examples);
    browser.open(&url(&page, ""));
    for (i, trace) in traces_of.iter().enumerate() {
        let g = i + 1;
        browser.open(&url(&page, &format!("#g={g}&p=0")));
        assert_eq!(browser.at(), (g as u64, 0));
        for k in 0..=trace.plies.len() {
            if k > 0 {
                browser.key(RIGHT);
            }
            assert_eq!(browser.at(), (g as u64, k as u64), "game {g}");
            assert_eq!(
                shown_board(&browser),
                expected_board(trace, k),
                "game {g}, ply {k}"
            );
        }
        browser.key(HOME);
        assert_eq!(browser.at(), (g as u64, 0));
        browser.key(END);
        assert_eq!(browser.at(), (g as u64, trace.plies.len() as u64));
    }
    // The buttons are reached and pressed from the keyboard.
    browser.open(&url(&page, "#g=15&p=1"));
    browser.run("document.getElementById('first').focus()");
    browser.key("\u{E004}"); // Tab: to the button of the previous ply
    let focused = browser.run("return document.activeElement.id");
    assert_eq!(focused, "prev");
    browser.key("\u{E007}"); // Enter
    assert_eq!(browser.at(), (15, 0));
    // A click on a ply of the move list steps there, and the step is announced.
    browser.open(&url(&page, "#g=6&p=0"));
    browser.wait_at((6, 0));
    // A click follows the link's fragment, which the page's script handles after the
    // click returns; and a link found before the list is drawn for the game belongs to
    // the list it replaces. So the step is waited for, the link found anew if need be.
    for _ in 0..5 {
        let link = browser.call(
            "POST",
            "element",
            Some(json!({"using": "css selector", "value": "#moves a.ply"})),
        );
        let id = link
            .as_object()
            .unwrap()
            .values()
            .next()
            .unwrap()
            .as_str()
            .unwrap()
            .to_string();
        browser.call("POST", &format!("element/{id}/click"), Some(json!({})));
        for _ in 0..20 {
            if browser.at() == (6, 1) {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if browser.at() == (6, 1) {
            break;
        }
    }
    assert_eq!(browser.at(), (6, 1));
    let said = browser.run("return document.getElementById('status').textContent");
    assert!(
        said.as_str()
            .unwrap()
            .starts_with("Game 6, ply 1 of 1: 1. b1xd7 by South"),
        "{said}"
    );
    no_request_left(&browser, "examples");

    let generated: Vec<PathBuf> = [
        "bao-la-kimasai-random",
        "kiothi-random",
        "nsolo-4x8-random",
        "tsoro-4x8-random",
    ]
    .iter()
    .map(|g| root().join(format!("records/generated/{g}.pmn")))
    .collect();
    for file in &generated {
        let first: String = std::fs::read_to_string(file)
            .unwrap()
            .split("\n\n[")
            .next()
            .unwrap()
            .to_string();
        let stem = file.file_stem().unwrap().to_str().unwrap();
        let one = dir.path().join(format!("{stem}.pmn"));
        std::fs::write(&one, format!("{first}\n")).unwrap();
        let page = dir.path().join(format!("{stem}.html"));
        make_page(std::slice::from_ref(&one), &page);
        let trace = &traces(std::slice::from_ref(&one))[0];
        assert!(trace.plies.len() > 10, "{}", file.display());
        browser.open(&url(&page, "#g=1&p=0"));
        for k in 0..=trace.plies.len() {
            if k > 0 {
                browser.key(RIGHT);
            }
            assert_eq!(browser.at(), (1, k as u64), "{}", file.display());
            assert_eq!(
                shown_board(&browser),
                expected_board(trace, k),
                "{}, ply {k}",
                file.display()
            );
        }
        // A deep link opens its ply, and the address follows the steps.
        let k = trace.plies.len() / 2;
        browser.open("about:blank");
        browser.open(&url(&page, &format!("#g=1&p={k}")));
        assert_eq!(browser.at(), (1, k as u64));
        assert_eq!(shown_board(&browser), expected_board(trace, k));
        browser.key(LEFT);
        let hash = browser.run("return location.hash");
        assert_eq!(hash, format!("#g=1&p={}", k - 1));
        no_request_left(&browser, &file.display().to_string());
    }

    // A variation is stepped through as the line it makes, and a deep link opens it.
    let variation = dir.path().join("variation.pmn");
    std::fs::write(
        &variation,
        "[Game \"Tsoro\"]\n[Board \"4x8\"]\n\n1. a5-a7 (1. a4 {or this} d4 (1... d3) 2. a1) d4-d2 2. a1 *\n",
    )
    .unwrap();
    let line = dir.path().join("line.pmn");
    std::fs::write(
        &line,
        "[Game \"Tsoro\"]\n[Board \"4x8\"]\n\n1. a4 d4 2. a1 *\n",
    )
    .unwrap();
    let line = &traces(std::slice::from_ref(&line))[0];
    assert_eq!(line.plies.len(), 3);
    let page = dir.path().join("variation.html");
    make_page(std::slice::from_ref(&variation), &page);
    browser.open(&url(&page, "#g=1&v=1&p=0"));
    for k in 0..=3 {
        if k > 0 {
            browser.key(RIGHT);
        }
        assert_eq!(browser.at(), (1, k));
        assert_eq!(
            shown_board(&browser),
            expected_board(line, k as usize),
            "ply {k}"
        );
    }
    assert_eq!(browser.run("return document.body.dataset.line"), "1");
    assert_eq!(browser.run("return location.hash"), "#g=1&v=1&p=3");
    browser.key(HOME);
    assert_eq!(browser.at(), (1, 0));
    no_request_left(&browser, "a variation");

    // The error of every flawed record, at its ply.
    let mut flawed: Vec<PathBuf> = std::fs::read_dir(root().join("records/flawed"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pmn"))
        .collect();
    flawed.sort();
    let page = dir.path().join("flawed.html");
    make_page(&flawed, &page);
    let flawed_traces = traces(&flawed);
    browser.open(&url(&page, ""));
    let mut checked = 0;
    for (i, trace) in flawed_traces.iter().enumerate() {
        let g = i + 1;
        // A record with warnings only shows its first.
        let error = (trace.first_error())
            .or(trace.diagnostics.first())
            .unwrap_or_else(|| panic!("flawed game {g} has no problem"));
        let (p, panel) = match error.ply {
            Some(p) => (p, "ply-problems"),
            None => (0, "game-problems"),
        };
        browser.open(&url(&page, &format!("#g={g}&p={p}")));
        assert_eq!(browser.at(), (g as u64, p as u64), "game {g}");
        let shown = browser.run(&format!(
            "return document.getElementById('{panel}').textContent"
        ));
        assert!(
            shown.as_str().unwrap().contains(&error.message),
            "game {g}: {shown} lacks {:?}",
            error.message
        );
        if let Some(p) = error.ply.filter(|&p| p as usize <= trace.plies.len() + 1) {
            // The ply is marked in the move list.
            let marked = browser.run(&format!(
                "var a = document.querySelector('#moves a[href$=\"&p={p}\"]'); return a && a.className"
            ));
            let severity = if error.is_error() { "error" } else { "warning" };
            assert!(
                marked.as_str().is_some_and(|c| c.contains(severity)),
                "game {g}, ply {p}: {marked}"
            );
        }
        if let (Some(p), Some(_)) = (error.ply, trace.rules.as_ref()) {
            // The board as it stood before the ply that could not be played.
            if p as usize > trace.plies.len() {
                assert_eq!(
                    shown_board(&browser),
                    expected_board(trace, trace.plies.len())
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= flawed.len(), "{checked} flawed games checked");
    no_request_left(&browser, "flawed");

    // At phone width nothing is wider than the screen.
    browser.call(
        "POST",
        "window/rect",
        Some(json!({"width": 390, "height": 844})),
    );
    browser.open(&url(&dir.path().join("examples.html"), "#g=6&p=1"));
    let widths = browser.run("return [document.documentElement.scrollWidth, window.innerWidth]");
    assert!(
        widths[0].as_u64() <= widths[1].as_u64(),
        "wider than the screen: {widths}"
    );
    browser.call(
        "POST",
        "window/rect",
        Some(json!({"width": 1100, "height": 900})),
    );

    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1") {
        // One position of each game, from records/examples/.
        let page = dir.path().join("examples.html");
        for (name, g, p) in [
            ("bao", 1, 1),
            ("kiothi", 4, 1),
            ("nsolo", 6, 1),
            ("tsoro", 12, 1),
        ] {
            browser.open("about:blank");
            browser.open(&url(&page, &format!("#g={g}&p={p}")));
            browser.screenshot(&root().join(format!("docs/view-{name}.png")));
        }
    }

    // A page of a thousand games opens and steps; its size and first paint are said.
    let games = dir.path().join("thousand.pmn");
    Command::cargo_bin("sow")
        .unwrap()
        .args([
            "generate", "--game", "Tsoro", "--board", "4x8", "--games", "1000", "-o",
        ])
        .arg(&games)
        .assert()
        .success();
    let page = dir.path().join("thousand.html");
    make_page(std::slice::from_ref(&games), &page);
    browser.open("about:blank");
    browser.open(&url(&page, "#g=1000&p=0"));
    assert_eq!(browser.at(), (1000, 0));
    for k in 1..=5 {
        browser.key(RIGHT);
        assert_eq!(browser.at(), (1000, k));
    }
    // Measured, and said: a timed assertion would fail on a busy machine.
    let times = browser.run(
        "var e = performance.getEntriesByName('first-contentful-paint')[0];
         return [e ? e.startTime : -1, performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd]",
    );
    let size = std::fs::metadata(&page).unwrap().len();
    say(&format!(
        "sow view: 1,000 Tsoro 4x8 games: {size} bytes ({} a game), first contentful paint {:.0} ms, board shown (DOMContentLoaded) {:.0} ms",
        size / 1000,
        times[0].as_f64().unwrap(),
        times[1].as_f64().unwrap()
    ));
    no_request_left(&browser, "a thousand games");
}
