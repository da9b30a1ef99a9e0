//! The lexer: turns MLIR text into tokens on demand (one token of lookahead, repositionable so that the
//! type parser can scan dimension lists like `2x?x3xf32` by hand). Never panics; malformed input becomes
//! an `Error` token carrying the message.

/// Token kinds of MLIR's textual syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Eof,
    /// A lexical error; the message is in `Token::text`.
    Error,
    /// `foo`, `stablehlo.add`, `f32`, `x`
    BareId,
    /// `%name` or `%name#3` (the `#N` result number is included in the text)
    ValueId,
    /// `@name` or `@"quoted name"`
    SymbolRef,
    /// `^bb0`
    CaretId,
    /// `#alias`, `#stablehlo.dot`
    HashId,
    /// `!alias`, `!stablehlo.token`
    BangId,
    /// decimal or `0x` hexadecimal integer (without sign)
    Int,
    /// `1.5`, `2.0e-3` (without sign)
    Float,
    /// `"..."` (text includes the quotes; escapes are not decoded)
    Str,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow,
    Question,
    Star,
    Plus,
    Minus,
    /// `{-#` (start of file metadata)
    MetaOpen,
    /// `#-}`
    MetaClose,
}

/// One token: its kind, its text and the byte offset where it starts.
#[derive(Clone, Copy, Debug)]
pub struct Token<'a> {
    pub kind: Tok,
    pub text: &'a str,
    pub pos: usize,
}

/// An on-demand lexer over the source text.
#[derive(Clone)]
pub struct Lexer<'a> {
    pub src: &'a str,
    pub pos: usize,
}

fn is_id_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_id_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.'
}

/// Characters allowed after `%`, `#`, `^`, `!` (MLIR's suffix-id).
fn is_suffix_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.' || c == b'-'
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer { src, pos: 0 }
    }

    fn byte(&self, i: usize) -> u8 {
        *self.src.as_bytes().get(i).unwrap_or(&0)
    }

    /// Skips whitespace and `//` comments.
    pub fn skip_trivia(&mut self) {
        let b = self.src.as_bytes();
        while self.pos < b.len() {
            let c = b[self.pos];
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.pos += 1;
            } else if c == b'/' && self.byte(self.pos + 1) == b'/' {
                while self.pos < b.len() && b[self.pos] != b'\n' {
                    self.pos += 1;
                }
            } else {
                break;
            }
        }
    }

    fn tok(&self, kind: Tok, start: usize) -> Token<'a> {
        Token { kind, text: self.src.get(start..self.pos).unwrap_or(""), pos: start }
    }

    fn err(&self, msg: &'static str, start: usize) -> Token<'a> {
        Token { kind: Tok::Error, text: msg, pos: start }
    }

    /// Lexes the next token.
    pub fn next_token(&mut self) -> Token<'a> {
        self.skip_trivia();
        let start = self.pos;
        let b = self.src.as_bytes();
        if start >= b.len() {
            return Token { kind: Tok::Eof, text: "", pos: b.len() };
        }
        let c = b[start];
        self.pos += 1;
        let simple = |k: Tok, this: &Lexer<'a>| this.tok(k, start);
        match c {
            b'(' => simple(Tok::LParen, self),
            b')' => simple(Tok::RParen, self),
            b'{' => {
                if self.byte(self.pos) == b'-' && self.byte(self.pos + 1) == b'#' {
                    self.pos += 2;
                    return self.tok(Tok::MetaOpen, start);
                }
                simple(Tok::LBrace, self)
            }
            b'}' => simple(Tok::RBrace, self),
            b'[' => simple(Tok::LBracket, self),
            b']' => simple(Tok::RBracket, self),
            b'<' => simple(Tok::Less, self),
            b'>' => simple(Tok::Greater, self),
            b',' => simple(Tok::Comma, self),
            b':' => simple(Tok::Colon, self),
            b'=' => simple(Tok::Equal, self),
            b'?' => simple(Tok::Question, self),
            b'*' => simple(Tok::Star, self),
            b'+' => simple(Tok::Plus, self),
            b'-' => {
                if self.byte(self.pos) == b'>' {
                    self.pos += 1;
                    return self.tok(Tok::Arrow, start);
                }
                simple(Tok::Minus, self)
            }
            b'"' => self.lex_string(start),
            b'%' => self.lex_prefixed(start, Tok::ValueId, true),
            b'^' => self.lex_prefixed(start, Tok::CaretId, false),
            b'!' => self.lex_prefixed(start, Tok::BangId, false),
            b'#' => {
                if self.byte(self.pos) == b'-' && self.byte(self.pos + 1) == b'}' {
                    self.pos += 2;
                    return self.tok(Tok::MetaClose, start);
                }
                self.lex_prefixed(start, Tok::HashId, false)
            }
            b'@' => {
                if self.byte(self.pos) == b'"' {
                    let t = self.lex_string(self.pos);
                    if t.kind == Tok::Error {
                        return t;
                    }
                    return self.tok(Tok::SymbolRef, start);
                }
                let s = self.pos;
                while is_suffix_char(self.byte(self.pos)) {
                    self.pos += 1;
                }
                if self.pos == s {
                    return self.err("expected a symbol name after '@'", start);
                }
                self.tok(Tok::SymbolRef, start)
            }
            c if c.is_ascii_digit() => self.lex_number(start),
            c if is_id_start(c) => {
                while is_id_char(self.byte(self.pos)) {
                    self.pos += 1;
                }
                self.tok(Tok::BareId, start)
            }
            _ => {
                // Step over a whole UTF-8 character so token text stays on char boundaries.
                while self.pos < b.len() && !self.src.is_char_boundary(self.pos) {
                    self.pos += 1;
                }
                self.err("unexpected character", start)
            }
        }
    }

    fn lex_prefixed(&mut self, start: usize, kind: Tok, result_no: bool) -> Token<'a> {
        let s = self.pos;
        if self.byte(self.pos).is_ascii_digit() {
            while self.byte(self.pos).is_ascii_digit() {
                self.pos += 1;
            }
        } else {
            while is_suffix_char(self.byte(self.pos)) {
                self.pos += 1;
            }
        }
        if self.pos == s {
            // A bare `!`/`#`/`%` is never valid.
            return self.err("expected an identifier after the sigil", start);
        }
        if result_no && self.byte(self.pos) == b'#' && self.byte(self.pos + 1).is_ascii_digit() {
            self.pos += 1;
            while self.byte(self.pos).is_ascii_digit() {
                self.pos += 1;
            }
        }
        self.tok(kind, start)
    }

    fn lex_string(&mut self, start: usize) -> Token<'a> {
        // `start` points at the opening quote.
        self.pos = start + 1;
        let b = self.src.as_bytes();
        loop {
            match b.get(self.pos) {
                None | Some(b'\n') => return self.err("unterminated string literal", start),
                Some(b'"') => {
                    self.pos += 1;
                    return self.tok(Tok::Str, start);
                }
                Some(b'\\') => self.pos += 2,
                Some(_) => self.pos += 1,
            }
        }
    }

    fn lex_number(&mut self, start: usize) -> Token<'a> {
        let b = self.src.as_bytes();
        if b[start] == b'0' && self.byte(self.pos) == b'x' && self.byte(self.pos + 1).is_ascii_hexdigit() {
            self.pos += 1;
            while self.byte(self.pos).is_ascii_hexdigit() {
                self.pos += 1;
            }
            return self.tok(Tok::Int, start);
        }
        while self.byte(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        if self.byte(self.pos) != b'.' {
            return self.tok(Tok::Int, start);
        }
        self.pos += 1;
        while self.byte(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        let e = self.byte(self.pos);
        if e == b'e' || e == b'E' {
            let mut p = self.pos + 1;
            if self.byte(p) == b'+' || self.byte(p) == b'-' {
                p += 1;
            }
            if self.byte(p).is_ascii_digit() {
                while self.byte(p).is_ascii_digit() {
                    p += 1;
                }
                self.pos = p;
            }
        }
        self.tok(Tok::Float, start)
    }

    /// Scans a balanced `<...>` body starting at `self.pos` (which must be at `<`), returning the text
    /// including the brackets; strings and nested brackets are respected, `->` does not close.
    pub fn scan_balanced_angle(&mut self) -> Option<&'a str> {
        let start = self.pos;
        let b = self.src.as_bytes();
        if b.get(start) != Some(&b'<') {
            return None;
        }
        let mut depth: Vec<u8> = Vec::new();
        let mut i = start;
        while i < b.len() {
            let c = b[i];
            match c {
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        if b[i] == b'\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                }
                b'<' => depth.push(b'>'),
                b'(' => depth.push(b')'),
                b'[' => depth.push(b']'),
                b'{' => depth.push(b'}'),
                b'-' if b.get(i + 1) == Some(&b'>') => i += 1,
                b'>' | b')' | b']' | b'}' => {
                    if depth.pop() != Some(c) {
                        return None;
                    }
                    if depth.is_empty() {
                        self.pos = i + 1;
                        return self.src.get(start..i + 1);
                    }
                }
                _ => {}
            }
            i += 1;
        }
        None
    }
}

/// Decodes the body of a string literal token (with its quotes) into bytes: `\n`, `\t`, `\"`, `\\` and
/// two-digit hex escapes `\0A`.
pub fn unescape(tok_text: &str) -> Result<Vec<u8>, &'static str> {
    let inner = tok_text.get(1..tok_text.len().saturating_sub(1)).unwrap_or("");
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = *b.get(i + 1).ok_or("unterminated escape in string")?;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'"' => out.push(b'"'),
            b'\\' => out.push(b'\\'),
            _ => {
                let d = *b.get(i + 2).ok_or("bad escape in string")?;
                let hex = |x: u8| (x as char).to_digit(16);
                match (hex(c), hex(d)) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 3;
                        continue;
                    }
                    _ => return Err("unknown escape in string literal"),
                }
            }
        }
        i += 2;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        let mut l = Lexer::new(s);
        let mut v = Vec::new();
        loop {
            let t = l.next_token();
            v.push(t.kind);
            if t.kind == Tok::Eof || t.kind == Tok::Error {
                return v;
            }
        }
    }

    #[test]
    fn lexes_basic_tokens() {
        use Tok::*;
        assert_eq!(
            kinds("%0#1 = \"a.b\"(%x) : (tensor<f32>) -> f32 // c\n@f ^bb0 #loc1 !t 0x1F 1.5e-3 {-# #-}"),
            vec![
                ValueId, Equal, Str, LParen, ValueId, RParen, Colon, LParen, BareId, Less, BareId, Greater, RParen,
                Arrow, BareId, SymbolRef, CaretId, HashId, BangId, Int, Float, MetaOpen, MetaClose, Eof
            ]
        );
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape("\"a\\n\\22\\\\\"").unwrap(), b"a\n\"\\".to_vec());
    }

    #[test]
    fn balanced() {
        let mut l = Lexer::new("<a<b>, \">\", c -> d>rest");
        assert_eq!(l.scan_balanced_angle(), Some("<a<b>, \">\", c -> d>"));
    }
}
