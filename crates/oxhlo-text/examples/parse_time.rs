//! Times parsing (and lexing alone) of the files given on the command line. A development aid.

fn main() {
    for path in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&path).expect("read");
        let t = std::time::Instant::now();
        let mut lex = oxhlo_text::lexer::Lexer::new(&src);
        let mut n = 0usize;
        while lex.next_token().kind != oxhlo_text::lexer::Tok::Eof {
            n += 1;
        }
        let lex_t = t.elapsed();
        // The best of several runs (the machine may be shared), and the CPU time per parse.
        let mut parse_t = std::time::Duration::MAX;
        let mut r = oxhlo_text::parse_module(&src, &path);
        const RUNS: u32 = 30;
        let cpu0 = thread_cpu_ms();
        for _ in 0..RUNS {
            let t = std::time::Instant::now();
            r = oxhlo_text::parse_module(&src, &path);
            parse_t = parse_t.min(t.elapsed());
        }
        let cpu = (thread_cpu_ms() - cpu0) / RUNS as f64;
        println!("{path}: CPU time per parse {cpu:.1} ms ({:.1} MB/s)", src.len() as f64 / 1e3 / cpu);
        let mb = src.len() as f64 / 1e6;
        println!(
            "{path}: {:.2} MB, {n} tokens, lex {:.1} ms ({:.0} MB/s), parse {:.1} ms ({:.1} MB/s) {}",
            mb,
            lex_t.as_secs_f64() * 1e3,
            mb / lex_t.as_secs_f64(),
            parse_t.as_secs_f64() * 1e3,
            mb / parse_t.as_secs_f64(),
            if r.is_ok() { "ok" } else { "ERR" }
        );
    }
}

/// This thread's user+system CPU time in ms (from /proc; 0 where unavailable).
fn thread_cpu_ms() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else { return 0.0 };
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 = f.get(11).and_then(|u| u.parse::<f64>().ok()).unwrap_or(0.0) + f.get(12).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    ticks * 10.0
}
