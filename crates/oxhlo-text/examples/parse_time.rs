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
        // The best of several runs: the machine may be shared.
        let mut parse_t = std::time::Duration::MAX;
        let mut r = oxhlo_text::parse_module(&src, &path);
        for _ in 0..15 {
            let t = std::time::Instant::now();
            r = oxhlo_text::parse_module(&src, &path);
            parse_t = parse_t.min(t.elapsed());
        }
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
