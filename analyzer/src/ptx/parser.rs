//! Error-tolerant parser over the lexer's tokens: statements, scopes, labels, directives,
//! instructions and operands. It records what it recovered from and never stops early.

use super::lexer::{lex, Lexed, Token, TokenKind};
use super::model::*;
use crate::isa::special_register;
use std::ops::Range;

pub(crate) fn parse(text: &str, mode: PercentMode) -> Ptx {
    let Lexed {
        tokens,
        percents,
        errors,
    } = lex(text, mode);
    let mut parser = Parser {
        text,
        tokens: &tokens,
        percents: &percents,
        pos: 0,
        errors,
        statements: Vec::new(),
        depth: 0,
        min_depth: 0,
        saw_hole: false,
        operand_nesting: 0,
        negation_allowed: false,
    };
    while parser.pos < tokens.len() {
        parser.statement();
    }
    let Parser {
        mut statements,
        mut errors,
        depth,
        min_depth,
        ..
    } = parser;
    resolve_symbols(text, &mut statements);
    errors.sort_by_key(|e| e.span.start);
    Ptx {
        statements,
        percents,
        errors,
        open_braces_at_end: depth,
        min_depth,
    }
}

struct Parser<'a> {
    text: &'a str,
    tokens: &'a [Token],
    percents: &'a [Percent],
    pos: usize,
    errors: Vec<SyntaxError>,
    statements: Vec<Statement>,
    depth: i32,
    min_depth: i32,
    /// A token with a hole was consumed since the current statement (or operand) began.
    saw_hole: bool,
    /// `[` and `(`/`{` lists open inside the operand being read: deeper than
    /// [`MAX_OPERAND_NESTING`], tokens are reported and skipped instead of recursed into, so
    /// that the input does not choose the stack depth.
    operand_nesting: u32,
    /// The instruction being read is `vmad`, whose sources may be negated (`-%1`).
    negation_allowed: bool,
}

const MAX_OPERAND_NESTING: u32 = 32;

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a Token> {
        self.tokens.get(self.pos)
    }

    fn peek_at(&self, ahead: usize) -> Option<&'a Token> {
        self.tokens.get(self.pos + ahead)
    }

    fn peek_is(&self, byte: u8) -> bool {
        self.peek().is_some_and(|t| t.is_punct(byte))
    }

    fn bump(&mut self) -> &'a Token {
        let token = &self.tokens[self.pos];
        self.pos += 1;
        self.saw_hole |= token.has_hole;
        token
    }

    fn text_of(&self, token: &Token) -> &'a str {
        &self.text[token.span()]
    }

    fn error(&mut self, span: Range<usize>, kind: SyntaxErrorKind) {
        self.errors.push(SyntaxError { span, kind });
    }

    fn unexpected(&mut self, token: &Token) {
        let text = self.text_of(token);
        // An unterminated string was reported by the lexer already.
        let open_string = token.kind == TokenKind::Str && (text.len() < 2 || !text.ends_with('"'));
        if !token.has_hole && !open_string {
            let text = text.to_string();
            self.error(token.span(), SyntaxErrorKind::Unexpected(text));
        }
    }

    fn push(&mut self, kind: StatementKind, span: Range<usize>, depth: i32) {
        self.statements.push(Statement { kind, span, depth });
    }

    fn statement(&mut self) {
        let token = self.tokens[self.pos];
        match token.kind {
            TokenKind::Punct(b';') => self.pos += 1,
            TokenKind::Punct(b'{') => {
                self.pos += 1;
                self.push(StatementKind::OpenBrace, token.span(), self.depth);
                self.depth += 1;
            }
            TokenKind::Punct(b'}') => {
                self.pos += 1;
                self.depth -= 1;
                if self.depth < 0 {
                    self.error(token.span(), SyntaxErrorKind::UnbalancedClose);
                }
                self.min_depth = self.min_depth.min(self.depth);
                self.push(StatementKind::CloseBrace, token.span(), self.depth);
            }
            TokenKind::Punct(b'@') => self.instruction(),
            TokenKind::Word if self.peek_at(1).is_some_and(|t| t.is_punct(b':')) => self.label(),
            TokenKind::Word if is_directive_word(self.text_of(&token)) => self.directive(),
            TokenKind::Word => self.instruction(),
            _ => {
                self.pos += 1;
                self.unexpected(&token);
            }
        }
    }

    fn label(&mut self) {
        let name = self.bump();
        let colon = self.bump();
        let label = LabelDef {
            name: self.text_of(name).to_string(),
            span: name.span(),
        };
        self.push(
            StatementKind::Label(label),
            name.start..colon.end,
            self.depth,
        );
    }

    fn instruction(&mut self) {
        let errors_before = self.errors.len();
        self.saw_hole = false;
        let first = self.tokens[self.pos];
        let guard = if first.is_punct(b'@') {
            self.guard()
        } else {
            None
        };
        let Some(opcode) = self.peek().filter(|t| t.kind == TokenKind::Word) else {
            if let Some(guard) = &guard {
                let text = self.text[guard.span.clone()].to_string();
                self.error(guard.span.clone(), SyntaxErrorKind::Unexpected(text));
            }
            if self.saw_hole {
                self.errors.truncate(errors_before);
            }
            return;
        };
        self.bump();
        let opcode_text = self.text_of(opcode);
        if !opcode_text.as_bytes()[0].is_ascii_alphabetic() {
            self.unexpected(opcode);
        }
        // ptxas accepts modifiers separated from the opcode by spaces: `prmt .b32 d, a, b, c;`.
        let mut opcode_string = opcode_text.to_string();
        self.negation_allowed = opcode_text == "vmad" || opcode_text.starts_with("vmad.");
        let mut parts = split_parts(opcode_text, opcode.start);
        let mut opcode_end = opcode.end;
        while let Some(next) = self.peek().filter(|t| t.kind == TokenKind::Word) {
            let word = self.text_of(next);
            if !word.starts_with('.') || word.len() < 2 || !word.as_bytes()[1].is_ascii_alphabetic()
            {
                break;
            }
            self.bump();
            opcode_string.push_str(word);
            parts.extend(split_parts(word, next.start));
            opcode_end = next.end;
        }
        let mut operands = Vec::new();
        let mut terminated = false;
        let mut end = opcode_end;
        let mut expect_operand = true;
        while let Some(token) = self.peek() {
            match token.kind {
                TokenKind::Punct(b';') => {
                    self.pos += 1;
                    end = token.end;
                    terminated = true;
                    break;
                }
                TokenKind::Punct(b',') => {
                    self.pos += 1;
                    end = token.end;
                    if expect_operand {
                        self.unexpected(token);
                    }
                    expect_operand = true;
                }
                TokenKind::Punct(b'}') => {
                    self.error(token.span(), SyntaxErrorKind::MissingSemicolon);
                    break;
                }
                _ if self.starts_statement(token, expect_operand) => {
                    let span = self.next_statement_head();
                    self.error(span, SyntaxErrorKind::MissingSemicolon);
                    break;
                }
                _ => {
                    if !expect_operand && can_start_operand(token) {
                        self.unexpected(token); // a missing comma
                    }
                    if let Some(operand) = self.operand() {
                        end = operand.span.end;
                        operands.push(operand);
                        expect_operand = false;
                    }
                }
            }
        }
        // A placeholder inside the opcode (`.m16n8k%10` with `"n"(16)`, `.%11` with `"C"(T::value)`)
        // is replaced by its operand's text when the compiler emits the asm: that part of the
        // instruction is not known here.
        let placeholder_in_opcode = self.percents.iter().any(|p| {
            p.span.start > opcode.start
                && p.span.end <= opcode_end
                && matches!(
                    p.kind,
                    PercentKind::Operand { .. } | PercentKind::Named { .. }
                )
        });
        let partial = self.saw_hole || placeholder_in_opcode;
        if partial {
            self.errors.truncate(errors_before);
        }
        let instruction = Instruction {
            guard,
            opcode: opcode_string,
            opcode_span: opcode.start..opcode_end,
            parts,
            operands,
            terminated,
            partial,
            form_cache: Default::default(),
        };
        self.push(
            StatementKind::Instruction(instruction),
            first.start..end,
            self.depth,
        );
    }

    fn guard(&mut self) -> Option<Guard> {
        let at = self.bump();
        let negated = self.peek_is(b'!');
        if negated {
            self.pos += 1;
        }
        match self.peek() {
            Some(word)
                if word.kind == TokenKind::Word && !looks_like_opcode(self.text_of(word)) =>
            {
                self.pos += 1;
                let before = std::mem::take(&mut self.saw_hole);
                let mut predicate = self.word_operand(word);
                if word.has_hole {
                    predicate.kind = OperandKind::Unknown;
                }
                self.saw_hole |= before || word.has_hole;
                Some(Guard {
                    negated,
                    predicate,
                    span: at.start..word.end,
                })
            }
            _ => {
                self.unexpected(at);
                None
            }
        }
    }

    /// True when `token`, met inside an instruction, rather begins the next statement.
    fn starts_statement(&self, token: &Token, expect_operand: bool) -> bool {
        match token.kind {
            TokenKind::Punct(b'@') => true,
            TokenKind::Punct(b'{') => !self.is_vector_at(self.pos),
            TokenKind::Word if token.has_hole => false,
            TokenKind::Word => {
                let text = self.text_of(token);
                if self.peek_at(1).is_some_and(|t| t.is_punct(b':'))
                    || is_directive_word(text)
                    || looks_like_opcode(text)
                {
                    return true;
                }
                if expect_operand {
                    return false;
                }
                // A word right after a complete operand: a missing `;` or a missing `,`.
                if self.saw_hole || token.newline_before {
                    return true;
                }
                let first = text.as_bytes()[0];
                if first == b'%' || first == b'$' || first.is_ascii_digit() {
                    return false;
                }
                !self.peek_at(1).is_some_and(|t| t.is_punct(b','))
            }
            _ => false,
        }
    }

    /// Where to report a missing `;`: the opcode (or label, or `{`) of the next statement.
    fn next_statement_head(&self) -> Range<usize> {
        let token = self.tokens[self.pos];
        if !token.is_punct(b'@') {
            return token.span();
        }
        let mut k = self.pos + 1;
        if self.tokens.get(k).is_some_and(|t| t.is_punct(b'!')) {
            k += 1;
        }
        match (self.tokens.get(k), self.tokens.get(k + 1)) {
            (Some(p), Some(op)) if p.kind == TokenKind::Word && op.kind == TokenKind::Word => {
                op.span()
            }
            _ => token.span(),
        }
    }

    /// Whether the `{` at `at` opens a vector operand rather than a scope.
    fn is_vector_at(&self, at: usize) -> bool {
        let mut saw_comma = false;
        for token in &self.tokens[at + 1..] {
            match token.kind {
                TokenKind::Punct(b'}') => return true,
                TokenKind::Punct(b';') => return saw_comma,
                TokenKind::Punct(b'{' | b'@' | b':') => return false,
                TokenKind::Punct(b',') => saw_comma = true,
                TokenKind::Word if !token.has_hole => {
                    let text = self.text_of(token);
                    if looks_like_opcode(text) || is_directive_word(text) {
                        return false;
                    }
                }
                _ => {}
            }
        }
        saw_comma
    }

    /// One top-level operand; when it touches a hole it becomes `Unknown`.
    fn operand(&mut self) -> Option<Operand> {
        let before = std::mem::take(&mut self.saw_hole);
        let operand = self.operand_inner();
        let hole = self.saw_hole;
        self.saw_hole |= before;
        operand.map(|o| {
            if hole {
                Operand {
                    kind: OperandKind::Unknown,
                    span: o.span,
                }
            } else {
                o
            }
        })
    }

    fn operand_inner(&mut self) -> Option<Operand> {
        let token = *self.peek()?;
        if self.operand_nesting >= MAX_OPERAND_NESTING {
            self.pos += 1;
            self.unexpected(&token);
            return None;
        }
        self.operand_nesting += 1;
        let operand = self.operand_at(token);
        self.operand_nesting -= 1;
        operand
    }

    fn operand_at(&mut self, token: Token) -> Option<Operand> {
        match token.kind {
            TokenKind::Punct(b'!') => {
                self.pos += 1;
                let inner = self.primary()?;
                Some(Operand {
                    span: token.start..inner.span.end,
                    kind: OperandKind::Not(Box::new(inner)),
                })
            }
            TokenKind::Punct(b'-') => {
                let first = self.primary()?;
                Some(self.constant_expression(first))
            }
            TokenKind::Punct(b'[') => Some(self.address()),
            TokenKind::Punct(b'{') => Some(self.list(b'}', "{")),
            TokenKind::Punct(b'(') => Some(self.list(b')', "(")),
            TokenKind::Word => {
                let first = self.primary()?;
                let first = self.constant_expression(first);
                if !self.peek_is(b'|') {
                    return Some(first);
                }
                self.pos += 1;
                let second = self.primary()?;
                Some(Operand {
                    span: first.span.start..second.span.end,
                    kind: OperandKind::Pair(Box::new(first), Box::new(second)),
                })
            }
            _ => {
                self.pos += 1;
                self.unexpected(&token);
                None
            }
        }
    }

    /// An integer constant expression (`32-2`, `1<<4`): a number followed by operators and
    /// numbers is one immediate, as ptxas reads it.
    fn constant_expression(&mut self, first: Operand) -> Operand {
        if !matches!(first.kind, OperandKind::Immediate(_)) {
            return first;
        }
        let mut end = first.span.end;
        while let Some(op) = self.peek() {
            let width = match op.kind {
                TokenKind::Punct(b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'^') => 1,
                TokenKind::Punct(b @ (b'<' | b'>'))
                    if self
                        .peek_at(1)
                        .is_some_and(|t| t.is_punct(b) && t.start == op.end) =>
                {
                    2
                }
                _ => break,
            };
            let Some(next) = self.peek_at(width) else {
                break;
            };
            let number = |t: &Token| {
                t.kind == TokenKind::Word
                    && !t.has_hole
                    && self.text_of(t).as_bytes()[0].is_ascii_digit()
            };
            if !number(next) {
                break;
            }
            self.pos += width;
            end = self.bump().end;
        }
        if end == first.span.end {
            return first;
        }
        let span = first.span.start..end;
        Operand {
            kind: OperandKind::Immediate(self.text[span.clone()].to_string()),
            span,
        }
    }

    /// A word, or a negative number `-4`.
    fn primary(&mut self) -> Option<Operand> {
        let token = *self.peek()?;
        match token.kind {
            TokenKind::Word => {
                self.bump();
                Some(self.word_operand(&token))
            }
            TokenKind::Punct(b'-') => {
                self.pos += 1;
                match self.peek() {
                    Some(number)
                        if number.kind == TokenKind::Word
                            && (number.has_hole
                                || self.text_of(number).as_bytes()[0].is_ascii_digit()) =>
                    {
                        self.bump();
                        let span = token.start..number.end;
                        let kind = OperandKind::Immediate(self.text[span.clone()].to_string());
                        Some(Operand { kind, span })
                    }
                    // `-a` of `vmad`: a negated register or placeholder reads that operand.
                    Some(operand)
                        if self.negation_allowed
                            && operand.kind == TokenKind::Word
                            && token.end == operand.start =>
                    {
                        self.bump();
                        let inner = self.word_operand(operand);
                        Some(Operand {
                            kind: inner.kind,
                            span: token.start..inner.span.end,
                        })
                    }
                    _ => {
                        self.unexpected(&token);
                        None
                    }
                }
            }
            _ => {
                self.unexpected(&token);
                None
            }
        }
    }

    fn word_operand(&mut self, token: &Token) -> Operand {
        let span = token.span();
        let text = self.text_of(token);
        let bytes = text.as_bytes();
        let percents = &self.percents[token.percents_start as usize..token.percents_end as usize];
        let kind = if token.has_hole {
            OperandKind::Unknown
        } else if text == "_" {
            OperandKind::Sink
        } else if bytes[0].is_ascii_digit()
            || (bytes[0] == b'.' && bytes.get(1).is_some_and(u8::is_ascii_digit))
        {
            OperandKind::Immediate(text.to_string())
        } else if percents.is_empty() {
            OperandKind::Register {
                name: text.to_string(),
                special: false,
            }
        } else if bytes[0] == b'%' || bytes[0] == b'$' {
            let whole = percents.len() == 1 && percents[0].span == span;
            match &percents[0].kind {
                PercentKind::Operand { index, modifier } if whole => {
                    OperandKind::Placeholder(Placeholder {
                        target: PlaceholderTarget::Index(*index),
                        modifier: modifier.clone(),
                    })
                }
                PercentKind::Named { name, modifier } if whole => {
                    OperandKind::Placeholder(Placeholder {
                        target: PlaceholderTarget::Name(name.clone()),
                        modifier: modifier.clone(),
                    })
                }
                PercentKind::Register { name } if whole => OperandKind::Register {
                    name: name.clone(),
                    special: special_register(name).is_some(),
                },
                PercentKind::Escape
                    if percents.len() == 1
                        && bytes.get(2).is_some_and(|&b| {
                            b.is_ascii_alphabetic() || b == b'_' || b == b'$'
                        }) =>
                {
                    OperandKind::Register {
                        name: text[2..].to_string(),
                        special: special_register(&text[2..]).is_some(),
                    }
                }
                PercentKind::Stray if text == "%" => {
                    self.unexpected(token);
                    OperandKind::Symbol(text.to_string())
                }
                _ => OperandKind::Symbol(text.to_string()),
            }
        } else {
            OperandKind::Symbol(text.to_string())
        };
        Operand { kind, span }
    }

    /// `[base]`, `[base+16]`, `[base + -4]`, or a bracketed list `[tmap, {x, y}]`.
    fn address(&mut self) -> Operand {
        let open = self.bump();
        let mut items: Vec<Operand> = Vec::new();
        let mut terms: Vec<(bool, Operand)> = Vec::new();
        let mut negative = false;
        let mut expect_term = true;
        let mut end = open.end;
        let mut closed = false;
        while let Some(token) = self.peek() {
            match token.kind {
                TokenKind::Punct(b']') => {
                    self.pos += 1;
                    end = token.end;
                    closed = true;
                    break;
                }
                TokenKind::Punct(b';' | b'}' | b'[' | b')') => break,
                TokenKind::Punct(b'+' | b'-') if !expect_term => {
                    self.pos += 1;
                    negative = token.is_punct(b'-');
                    expect_term = true;
                }
                TokenKind::Punct(b',') => {
                    self.pos += 1;
                    if let Some(item) = address_expression(std::mem::take(&mut terms)) {
                        items.push(item);
                    } else {
                        self.unexpected(token);
                    }
                    expect_term = true;
                }
                _ => {
                    if !expect_term && can_start_operand(token) {
                        self.unexpected(token);
                    }
                    if let Some(term) = self.operand_inner() {
                        end = term.span.end;
                        terms.push((std::mem::take(&mut negative), term));
                        expect_term = false;
                    }
                }
            }
        }
        if !closed {
            self.error(open.span(), SyntaxErrorKind::Unterminated("["));
        }
        let span = open.start..end;
        if items.is_empty() {
            let (base, offsets) = split_base(terms);
            if closed && base.is_none() && offsets.is_empty() {
                let close = &self.tokens[self.pos - 1];
                self.unexpected(close);
            }
            return Operand {
                kind: OperandKind::Address { base, offsets },
                span,
            };
        }
        if let Some(item) = address_expression(terms) {
            items.push(item);
        }
        Operand {
            kind: OperandKind::AddressList(items),
            span,
        }
    }

    /// `{a, b}` (a vector) or `(a, b)` (a `call` list), up to `close`.
    fn list(&mut self, close: u8, what: &'static str) -> Operand {
        let open = self.bump();
        let mut items = Vec::new();
        let mut expect_item = true;
        let mut end = open.end;
        let mut closed = false;
        while let Some(token) = self.peek() {
            match token.kind {
                TokenKind::Punct(b) if b == close => {
                    self.pos += 1;
                    end = token.end;
                    closed = true;
                    break;
                }
                TokenKind::Punct(b';' | b'{' | b'}' | b'(' | b')' | b']') => break,
                TokenKind::Punct(b',') => {
                    self.pos += 1;
                    end = token.end;
                    if expect_item {
                        self.unexpected(token);
                    }
                    expect_item = true;
                }
                _ => {
                    if !expect_item && can_start_operand(token) {
                        self.unexpected(token);
                    }
                    if let Some(item) = self.operand_inner() {
                        end = item.span.end;
                        items.push(item);
                        expect_item = false;
                    }
                }
            }
        }
        if !closed {
            self.error(open.span(), SyntaxErrorKind::Unterminated(what));
        }
        Operand {
            kind: OperandKind::Vector(items),
            span: open.start..end,
        }
    }

    fn directive(&mut self) {
        let errors_before = self.errors.len();
        self.saw_hole = false;
        let name = self.bump();
        let mut end = name.end;
        let mut modifiers = Vec::new();
        while let Some(token) = self.peek() {
            let text = self.text_of(token);
            let is_modifier = match token.kind {
                TokenKind::Str => true,
                TokenKind::Word => {
                    let first = text.as_bytes()[0];
                    (first == b'.' || first.is_ascii_digit())
                        && !self.peek_at(1).is_some_and(|t| t.is_punct(b':'))
                }
                _ => false,
            };
            if !is_modifier {
                break;
            }
            self.bump();
            end = token.end;
            modifiers.push(Part {
                text: text.to_string(),
                span: token.span(),
            });
        }
        let mut declared = Vec::new();
        let mut expect_name = true;
        while let Some(token) = self.peek() {
            match token.kind {
                TokenKind::Punct(b';') => {
                    self.pos += 1;
                    end = token.end;
                    break;
                }
                TokenKind::Punct(b',') => {
                    self.pos += 1;
                    end = token.end;
                    if expect_name {
                        self.unexpected(token);
                    }
                    expect_name = true;
                }
                TokenKind::Punct(b'}' | b'{' | b'@') => {
                    let span = self.next_statement_head();
                    self.error(span, SyntaxErrorKind::MissingSemicolon);
                    break;
                }
                TokenKind::Word => {
                    if self.directive_ends_before(token, expect_name) {
                        let span = self.next_statement_head();
                        self.error(span, SyntaxErrorKind::MissingSemicolon);
                        break;
                    }
                    if !expect_name {
                        self.unexpected(token);
                    }
                    self.bump();
                    let (suffix_end, count) = self.declared_suffix(token.end);
                    end = suffix_end;
                    let text = self.text_of(token);
                    declared.push(Declared {
                        name: text.trim_start_matches('%').to_string(),
                        span: token.span(),
                        count,
                    });
                    expect_name = false;
                }
                _ => {
                    self.pos += 1;
                    self.unexpected(token);
                }
            }
        }
        if self.saw_hole {
            self.errors.truncate(errors_before);
        }
        let directive = Directive {
            name: self.text_of(name).to_string(),
            name_span: name.span(),
            modifiers,
            declared,
        };
        self.push(
            StatementKind::Directive(directive),
            name.start..end,
            self.depth,
        );
    }

    /// A word met among a directive's names that rather begins the next statement.
    fn directive_ends_before(&self, token: &Token, expect_name: bool) -> bool {
        if token.has_hole {
            return false;
        }
        let text = self.text_of(token);
        self.peek_at(1).is_some_and(|t| t.is_punct(b':'))
            || is_directive_word(text)
            || looks_like_opcode(text)
            || (!expect_name && (token.newline_before || self.saw_hole))
    }

    /// Reads what may follow a declared name: `<N>`, `[N]`..., `= initializer`. Returns the end
    /// of what it read and the `<N>` count.
    fn declared_suffix(&mut self, mut end: usize) -> (usize, Option<u32>) {
        let mut count = None;
        if self.peek_is(b'<') {
            let open = self.bump();
            end = open.end;
            match self.peek() {
                Some(n) if n.kind == TokenKind::Word => {
                    self.bump();
                    end = n.end;
                    count = self.text_of(n).parse().ok();
                    if count.is_none() {
                        self.unexpected(n);
                    }
                }
                _ => self.unexpected(open),
            }
            if self.peek_is(b'>') {
                end = self.bump().end;
            } else {
                self.unexpected(open);
            }
        }
        while self.peek_is(b'[') {
            let open = self.bump();
            end = open.end;
            let mut closed = false;
            while let Some(token) = self.peek() {
                if token.is_punct(b']') {
                    end = self.bump().end;
                    closed = true;
                    break;
                }
                if matches!(token.kind, TokenKind::Punct(b';' | b',' | b'{' | b'}')) {
                    break;
                }
                end = self.bump().end;
            }
            if !closed {
                self.error(open.span(), SyntaxErrorKind::Unterminated("["));
            }
        }
        if self.peek_is(b'=') {
            end = self.bump().end;
            let mut nesting = 0i32;
            while let Some(token) = self.peek() {
                match token.kind {
                    TokenKind::Punct(b';') => break,
                    TokenKind::Punct(b',') if nesting == 0 => break,
                    TokenKind::Punct(b'{' | b'(') => nesting += 1,
                    TokenKind::Punct(b'}' | b')') if nesting == 0 => break,
                    TokenKind::Punct(b'}' | b')') => nesting -= 1,
                    _ => {}
                }
                end = self.bump().end;
            }
        }
        (end, count)
    }
}

/// `.reg`, `.shared`, `.pragma`... (not a number such as `.5`).
fn is_directive_word(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() > 1 && bytes[0] == b'.' && !bytes[1].is_ascii_digit()
}

/// A dotted identifier such as `add.u32` or `bar.sync`: operands never look like this, except
/// vector components (`v.x`).
fn looks_like_opcode(text: &str) -> bool {
    let bytes = text.as_bytes();
    if !bytes.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    match text.find('.') {
        None => false,
        Some(dot) => {
            !matches!(
                &bytes[dot + 1..],
                [b'x' | b'y' | b'z' | b'w' | b'r' | b'g' | b'b' | b'a']
            ) && !is_selector(&text[dot + 1..])
        }
    }
}

/// A video instruction's byte or half-word selector on a register (`u0.h1`, `r.b2`, and the
/// SIMD forms `.b3210`, `.h10`).
fn is_selector(suffix: &str) -> bool {
    let digits_up_to = |d: &[u8], max: u8| d.iter().all(|&b| (b'0'..=max).contains(&b));
    match suffix.as_bytes() {
        [b'h', d @ ..] => {
            matches!(d.len(), 1 | 2) && digits_up_to(d, if d.len() == 1 { b'1' } else { b'3' })
        }
        [b'b', d @ ..] => {
            (d.len() == 1 && digits_up_to(d, b'3')) || (d.len() == 4 && digits_up_to(d, b'7'))
        }
        _ => false,
    }
}

fn can_start_operand(token: &Token) -> bool {
    matches!(
        token.kind,
        TokenKind::Word | TokenKind::Punct(b'[' | b'{' | b'(' | b'-' | b'!')
    )
}

/// `ld.global.v4.u32` -> `ld`, `.global`, `.v4`, `.u32` with their spans (`offset`: the word's
/// position in the text).
fn split_parts(word: &str, offset: usize) -> Vec<Part> {
    let mut parts = Vec::with_capacity(4);
    let mut part_start = 0;
    for (i, byte) in word.bytes().enumerate() {
        if byte == b'.' && i > part_start {
            parts.push(Part {
                text: word[part_start..i].to_string(),
                span: offset + part_start..offset + i,
            });
            part_start = i;
        }
    }
    parts.push(Part {
        text: word[part_start..].to_string(),
        span: offset + part_start..offset + word.len(),
    });
    parts
}

/// The base and signed offsets of `base + a - b`; a leading negative term has no base.
fn split_base(terms: Vec<(bool, Operand)>) -> (Option<Box<Operand>>, Vec<(bool, Operand)>) {
    let mut terms = terms.into_iter();
    match terms.next() {
        Some((false, base)) => (Some(Box::new(base)), terms.collect()),
        Some(first) => (None, std::iter::once(first).chain(terms).collect()),
        None => (None, Vec::new()),
    }
}

/// One element of a bracketed list: a lone operand, or `base+offset` as an address.
fn address_expression(mut terms: Vec<(bool, Operand)>) -> Option<Operand> {
    match terms.len() {
        0 => None,
        1 if !terms[0].0 => terms.pop().map(|(_, operand)| operand),
        _ => {
            let span = terms[0].1.span.start..terms[terms.len() - 1].1.span.end;
            let (base, offsets) = split_base(terms);
            Some(Operand {
                kind: OperandKind::Address { base, offsets },
                span,
            })
        }
    }
}

/// Plain identifiers parse as registers; this turns the ones that name labels, variables of
/// other state spaces, branch targets and address symbols into `Symbol`s.
fn resolve_symbols(text: &str, statements: &mut [Statement]) {
    let mut registers: Vec<String> = Vec::new();
    let mut symbols: Vec<String> = Vec::new();
    for statement in statements.iter() {
        match &statement.kind {
            StatementKind::Directive(d) if d.name == ".reg" => {
                registers.extend(d.declared.iter().map(|n| n.name.clone()));
            }
            StatementKind::Directive(d) => {
                symbols.extend(d.declared.iter().map(|n| n.name.clone()));
            }
            StatementKind::Label(label) => symbols.push(label.name.clone()),
            _ => {}
        }
    }
    let context = SymbolContext {
        text,
        registers: &registers,
        symbols: &symbols,
    };
    for statement in statements.iter_mut() {
        if let StatementKind::Instruction(instruction) = &mut statement.kind {
            // Branch targets and called functions name labels and symbols.
            let base = instruction.base();
            let (bra, brx, call) = (base == "bra", base == "brx", base == "call");
            let last = instruction.operands.len().saturating_sub(1);
            for (i, operand) in instruction.operands.iter_mut().enumerate() {
                let target = bra
                    || (brx && i == last)
                    || (call && !matches!(operand.kind, OperandKind::Vector(_)));
                context.mark(operand, target);
            }
        }
    }
}

struct SymbolContext<'a> {
    text: &'a str,
    registers: &'a [String],
    symbols: &'a [String],
}

impl SymbolContext<'_> {
    fn mark(&self, operand: &mut Operand, symbolic: bool) {
        match &mut operand.kind {
            OperandKind::Register {
                name,
                special: false,
            } => {
                let plain = self.text.as_bytes()[operand.span.start] != b'%';
                let is_register = self.registers.iter().any(|r| r == name);
                if plain && !is_register && (symbolic || self.symbols.iter().any(|s| s == name)) {
                    operand.kind = OperandKind::Symbol(std::mem::take(name));
                }
            }
            OperandKind::Address { base, offsets } => {
                if let Some(base) = base {
                    self.mark(base, true);
                }
                for (_, offset) in offsets {
                    self.mark(offset, true);
                }
            }
            OperandKind::AddressList(items) => {
                for (i, item) in items.iter_mut().enumerate() {
                    self.mark(item, symbolic || i == 0);
                }
            }
            OperandKind::Vector(items) => {
                for item in items {
                    self.mark(item, symbolic);
                }
            }
            OperandKind::Pair(first, second) => {
                self.mark(first, symbolic);
                self.mark(second, symbolic);
            }
            OperandKind::Not(inner) => self.mark(inner, symbolic),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::HOLE;

    fn with(text: &str) -> Ptx {
        parse(text, PercentMode::WithOperands)
    }

    fn verbatim(text: &str) -> Ptx {
        parse(text, PercentMode::Verbatim)
    }

    fn instructions(ptx: &Ptx) -> Vec<&Instruction> {
        ptx.instructions().map(|(_, i)| i).collect()
    }

    /// The only instruction of a template that must parse without errors.
    fn single(ptx: &Ptx) -> &Instruction {
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let all = instructions(ptx);
        assert_eq!(all.len(), 1, "{:?}", ptx.statements);
        all[0]
    }

    fn slice(text: &str, span: &Range<usize>) -> String {
        text[span.clone()].to_string()
    }

    fn index(operand: &Operand) -> u32 {
        match operand.placeholder().map(|p| &p.target) {
            Some(PlaceholderTarget::Index(i)) => *i,
            other => panic!("not an index placeholder: {other:?} in {operand:?}"),
        }
    }

    fn register(operand: &Operand) -> (&str, bool) {
        match &operand.kind {
            OperandKind::Register { name, special } => (name.as_str(), *special),
            other => panic!("not a register: {other:?}"),
        }
    }

    fn immediate(operand: &Operand) -> &str {
        match &operand.kind {
            OperandKind::Immediate(text) => text,
            other => panic!("not an immediate: {other:?}"),
        }
    }

    #[test]
    fn empty_whitespace_and_comments_give_no_statements() {
        for text in [
            "",
            "  \n\t ",
            "// only a comment",
            "/* a */ // b\n",
            "\n/*x*/\n",
        ] {
            let ptx = with(text);
            assert!(ptx.statements.is_empty(), "{text:?}");
            assert!(ptx.errors.is_empty(), "{text:?}");
        }
    }

    #[test]
    fn placeholders_have_exact_spans() {
        let text = "add.u32 %0, %12, %[value];";
        let ptx = with(text);
        let add = single(&ptx);
        assert_eq!(add.operands.len(), 3);
        assert_eq!(index(&add.operands[0]), 0);
        assert_eq!(add.operands[0].span, 8..10);
        assert_eq!(index(&add.operands[1]), 12);
        assert_eq!(slice(text, &add.operands[1].span), "%12");
        let named = add.operands[2].placeholder().unwrap();
        assert_eq!(named.target, PlaceholderTarget::Name("value".into()));
        assert_eq!(slice(text, &add.operands[2].span), "%[value]");
        assert!(add.terminated);
        assert!(!add.partial);
        let (statement, _) = ptx.instructions().next().unwrap();
        assert_eq!(statement.span, 0..text.len());
    }

    #[test]
    fn modifiers_separated_by_spaces_join_the_opcode() {
        let ptx = parse("prmt .b32 neg, %3, %4, %1 ;", PercentMode::WithOperands);
        let (_, i) = ptx.instructions().next().unwrap();
        assert_eq!(i.opcode, "prmt.b32");
        let parts: Vec<&str> = i.parts.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(parts, vec!["prmt", ".b32"]);
        assert_eq!(i.parts[1].span, 5..9);
        assert_eq!(i.operands.len(), 4);
        assert!(ptx.errors.is_empty());
    }

    #[test]
    fn opcode_parts_keep_dots_and_double_colons() {
        let text = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];";
        let ptx = with(text);
        let cp = single(&ptx);
        let parts: Vec<&str> = cp.parts.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(
            parts,
            [
                "cp",
                ".async",
                ".bulk",
                ".tensor",
                ".2d",
                ".shared::cluster",
                ".global",
                ".mbarrier::complete_tx::bytes"
            ]
        );
        for part in &cp.parts {
            assert_eq!(slice(text, &part.span), part.text);
        }
        assert_eq!(cp.base(), "cp");
        assert!(cp.has(".shared::cluster"));
        assert_eq!(slice(text, &cp.opcode_span), cp.opcode);
        let OperandKind::AddressList(items) = &cp.operands[1].kind else {
            panic!("{:?}", cp.operands[1]);
        };
        assert_eq!(index(&items[0]), 1);
        assert!(matches!(&items[1].kind, OperandKind::Vector(v) if v.len() == 2));
        assert_eq!(slice(text, &cp.operands[1].span), "[%1, {%2, %3}]");

        let text = "ld.global.L1::no_allocate.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;";
        let ptx = with(text);
        let ld = single(&ptx);
        assert!(ld.has(".L1::no_allocate") && ld.has(".L2::cache_hint") && ld.has(".v4"));
        let global = &ld.parts[1];
        assert_eq!(global.text, ".global");
        assert_eq!(global.span, 2..9);
    }

    #[test]
    fn registers_in_both_percent_modes() {
        let text = "mov.u32 t1, %%r1;";
        let ptx = with(text);
        let mov = single(&ptx);
        assert_eq!(register(&mov.operands[0]), ("t1", false));
        assert_eq!(register(&mov.operands[1]), ("r1", false));
        assert_eq!(slice(text, &mov.operands[1].span), "%%r1");
        assert_eq!(ptx.percents.len(), 1);
        assert_eq!(ptx.percents[0].kind, PercentKind::Escape);
        assert_eq!(ptx.percents[0].span, 12..14);

        let text = "mov.u32 %r1, %rd2;";
        let ptx = verbatim(text);
        let mov = single(&ptx);
        assert_eq!(register(&mov.operands[0]), ("r1", false));
        assert_eq!(register(&mov.operands[1]), ("rd2", false));
        // With operands `%r1` is a modifier on operand 1 while `%rd2` stays a register.
        let ptx = with(text);
        let mov = single(&ptx);
        let placeholder = mov.operands[0].placeholder().unwrap();
        assert_eq!(placeholder.modifier.as_deref(), Some("r"));
        assert_eq!(register(&mov.operands[1]), ("rd2", false));
    }

    #[test]
    fn special_registers() {
        let text = "mov.u32 %0, %%laneid;";
        let mov = single(&with(text)).clone();
        assert_eq!(register(&mov.operands[1]), ("laneid", true));
        assert_eq!(slice(text, &mov.operands[1].span), "%%laneid");

        let text = "mov.u32 %0, %%tid.x;\nmov.u64 %1, %clock64;\nmov.u32 %2, %%cluster_ctarank;";
        let ptx = with(text);
        assert!(ptx.errors.is_empty());
        let all = instructions(&ptx);
        assert_eq!(register(&all[0].operands[1]), ("tid.x", true));
        assert_eq!(register(&all[1].operands[1]), ("clock64", true));
        assert_eq!(slice(text, &all[1].operands[1].span), "%clock64");
        assert_eq!(register(&all[2].operands[1]), ("cluster_ctarank", true));
        let percent = ptx
            .percents
            .iter()
            .find(|p| matches!(&p.kind, PercentKind::Register { name } if name == "clock64"));
        assert_eq!(
            percent.map(|p| slice(text, &p.span)).as_deref(),
            Some("%clock64")
        );

        let ptx = verbatim("mov.u32 %r1, %globaltimer_lo; mov.u32 %r2, %smid;");
        let all = instructions(&ptx);
        assert_eq!(register(&all[0].operands[1]), ("globaltimer_lo", true));
        assert_eq!(register(&all[1].operands[1]), ("smid", true));
        assert_eq!(register(&all[1].operands[0]), ("r2", false));
    }

    #[test]
    fn immediates_of_every_form() {
        let text = "foo.b32 42, -1, 0x1F, 0X1f, 017, 0f3F800000, 0F3F800000, 0d3FF0000000000000, 1.5, 1e-3, 16U, 2.5E+4;";
        let ptx = with(text);
        let foo = single(&ptx);
        let got: Vec<&str> = foo.operands.iter().map(immediate).collect();
        assert_eq!(
            got,
            [
                "42",
                "-1",
                "0x1F",
                "0X1f",
                "017",
                "0f3F800000",
                "0F3F800000",
                "0d3FF0000000000000",
                "1.5",
                "1e-3",
                "16U",
                "2.5E+4"
            ]
        );
        for operand in &foo.operands {
            assert_eq!(slice(text, &operand.span), immediate(operand));
        }
    }

    #[test]
    fn vectors_span_lines_and_hold_sinks() {
        let text = "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3},\n  {%4, %5,\n   %6, %7}, {%8,%9}, {%10,%11,%12,%13};";
        let ptx = with(text);
        let mma = single(&ptx);
        assert_eq!(mma.operands.len(), 4);
        let sizes: Vec<usize> = mma
            .operands
            .iter()
            .map(|o| match &o.kind {
                OperandKind::Vector(items) => items.len(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(sizes, [4, 4, 2, 4]);
        assert_eq!(slice(text, &mma.operands[1].span), "{%4, %5,\n   %6, %7}");

        let text = "mov.b64 {_, %0}, %1;";
        let ptx = with(text);
        let mov = single(&ptx);
        let OperandKind::Vector(items) = &mov.operands[0].kind else {
            panic!()
        };
        assert!(matches!(items[0].kind, OperandKind::Sink));
        assert_eq!(items[0].span, 9..10);
        assert_eq!(index(&items[1]), 0);
    }

    #[test]
    fn addresses_with_offsets() {
        let text = "ld.b32 %0, [%1]; ld.b32 %0, [%1+16]; ld.b32 %0, [%1 + -4]; ld.b32 %0, [%1+%2]; ld.b32 %0, [%rd1+0]; ld.b32 %0, [%1-4];";
        let ptx = verbatim(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let addresses: Vec<(&Operand, Vec<(bool, String)>)> = ptx
            .instructions()
            .map(|(_, i)| match &i.operands[1].kind {
                OperandKind::Address { base, offsets } => (
                    base.as_deref().unwrap(),
                    offsets
                        .iter()
                        .map(|(neg, o)| (*neg, slice(text, &o.span)))
                        .collect(),
                ),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(addresses[0].1, []);
        assert_eq!(addresses[1].1, [(false, "16".to_string())]);
        assert_eq!(addresses[2].1, [(false, "-4".to_string())]);
        assert_eq!(addresses[3].1, [(false, "%2".to_string())]);
        assert_eq!(register(addresses[4].0), ("rd1", false));
        assert_eq!(addresses[5].1, [(true, "4".to_string())]);
        assert_eq!(
            slice(text, &instructions(&ptx)[2].operands[1].span),
            "[%1 + -4]"
        );
        assert_eq!(index(addresses[0].0), 1);
    }

    #[test]
    fn address_symbols_and_declared_variables() {
        let text = "{ .shared .align 16 .b8 buf[256];\n .reg .u64 addr;\n ld.shared.u32 %0, [buf+8];\n ld.u32 %1, [addr];\n mov.u32 %2, buf; }";
        let ptx = with(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let all = instructions(&ptx);
        let OperandKind::Address { base, offsets } = &all[0].operands[1].kind else {
            panic!()
        };
        assert!(matches!(&base.as_ref().unwrap().kind, OperandKind::Symbol(s) if s == "buf"));
        assert_eq!(immediate(&offsets[0].1), "8");
        let OperandKind::Address { base, .. } = &all[1].operands[1].kind else {
            panic!()
        };
        assert_eq!(register(base.as_ref().unwrap()), ("addr", false));
        assert!(matches!(&all[2].operands[1].kind, OperandKind::Symbol(s) if s == "buf"));
    }

    #[test]
    fn sink_not_and_pairs() {
        let text = "shfl.sync.up.b32 %0|p, %1, 1, 0, 0xffffffff;";
        let ptx = with(text);
        let shfl = single(&ptx);
        let OperandKind::Pair(dest, pred) = &shfl.operands[0].kind else {
            panic!("{:?}", shfl.operands[0])
        };
        assert_eq!(index(dest), 0);
        assert_eq!(register(pred), ("p", false));
        assert_eq!(slice(text, &shfl.operands[0].span), "%0|p");
        assert_eq!(pred.span, 20..21);

        let text = "setp.eq.s32 p|q, a, b; selp.b32 %0, 1, 0, !p; atom.exch.b32 _, [%1], 0;";
        let ptx = with(text);
        assert!(ptx.errors.is_empty());
        let all = instructions(&ptx);
        assert!(matches!(all[0].operands[0].kind, OperandKind::Pair(..)));
        let OperandKind::Not(inner) = &all[1].operands[3].kind else {
            panic!()
        };
        assert_eq!(register(inner), ("p", false));
        assert_eq!(slice(text, &all[1].operands[3].span), "!p");
        assert!(matches!(all[2].operands[0].kind, OperandKind::Sink));
    }

    #[test]
    fn guards_in_every_spelling() {
        let text = "@p bra L; @!p bra L; @%0 bra L; @%%p bra L; @!%p bra L;";
        let ptx = with(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let guards: Vec<(bool, String, String)> = ptx
            .instructions()
            .map(|(statement, i)| {
                let guard = i.guard.as_ref().unwrap();
                assert_eq!(statement.span.start, guard.span.start);
                assert_eq!(i.base(), "bra");
                (
                    guard.negated,
                    slice(text, &guard.span),
                    slice(text, &guard.predicate.span),
                )
            })
            .collect();
        let expected = [
            (false, "@p", "p"),
            (true, "@!p", "p"),
            (false, "@%0", "%0"),
            (false, "@%%p", "%%p"),
            (true, "@!%p", "%p"),
        ];
        for (got, want) in guards.iter().zip(expected) {
            assert_eq!((got.0, got.1.as_str(), got.2.as_str()), want);
        }
        let all = instructions(&ptx);
        assert_eq!(index(&all[2].guard.as_ref().unwrap().predicate), 0);
        assert_eq!(
            register(&all[3].guard.as_ref().unwrap().predicate),
            ("p", false)
        );
        let (statement, _) = ptx.instructions().nth(1).unwrap();
        assert_eq!(slice(text, &statement.span), "@!p bra L;");
    }

    #[test]
    fn labels_with_unique_ids_and_branch_targets() {
        let text = "L_%=: mov.u32 %0, 1;\n$L__BB0_1:\nDONE%=:\n@p bra.uni L_%=;\nbra DONE%=;\nbra $L__BB0_1;";
        let ptx = with(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let labels: Vec<(&str, String)> = ptx
            .statements
            .iter()
            .filter_map(|s| match &s.kind {
                StatementKind::Label(l) => Some((l.name.as_str(), slice(text, &s.span))),
                _ => None,
            })
            .collect();
        assert_eq!(
            labels,
            [
                ("L_%=", "L_%=:".to_string()),
                ("$L__BB0_1", "$L__BB0_1:".to_string()),
                ("DONE%=", "DONE%=:".to_string())
            ]
        );
        let all = instructions(&ptx);
        assert_eq!(all[0].base(), "mov");
        assert!(matches!(&all[1].operands[0].kind, OperandKind::Symbol(s) if s == "L_%="));
        assert!(matches!(&all[2].operands[0].kind, OperandKind::Symbol(s) if s == "DONE%="));
        assert!(matches!(&all[3].operands[0].kind, OperandKind::Symbol(s) if s == "$L__BB0_1"));
        let uniques = ptx
            .percents
            .iter()
            .filter(|p| p.kind == PercentKind::Unique)
            .count();
        assert_eq!(uniques, 4);
    }

    #[test]
    fn branch_and_call_targets_are_symbols() {
        let text = "{ .param .b64 param0;\n brx.idx idx, tbl;\n call.uni (retval0), vprintf, (param0, fmt);\n }";
        let ptx = with(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let all = instructions(&ptx);
        assert_eq!(register(&all[0].operands[0]), ("idx", false));
        assert!(matches!(&all[0].operands[1].kind, OperandKind::Symbol(s) if s == "tbl"));
        assert!(matches!(&all[1].operands[1].kind, OperandKind::Symbol(s) if s == "vprintf"));
        let OperandKind::Vector(params) = &all[1].operands[2].kind else {
            panic!("{:?}", all[1].operands[2])
        };
        assert_eq!(slice(text, &all[1].operands[2].span), "(param0, fmt)");
        assert!(matches!(&params[0].kind, OperandKind::Symbol(s) if s == "param0"));
        assert_eq!(register(&params[1]), ("fmt", false));
    }

    fn directives(ptx: &Ptx) -> Vec<&Directive> {
        ptx.statements
            .iter()
            .filter_map(|s| match &s.kind {
                StatementKind::Directive(d) => Some(d),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn register_directives_with_counts_and_lists() {
        let text = ".reg .b32 t1;\n.reg .b32 a, b, c;\n.reg .pred p<4>;\n.reg .pred %p;\n.reg .v4 .f32 %v<2>;";
        let ptx = verbatim(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let all = directives(&ptx);
        assert_eq!(all.len(), 5);
        assert!(all.iter().all(|d| d.name == ".reg"));
        assert_eq!(all[0].modifiers[0].text, ".b32");
        assert_eq!(all[0].declared[0].name, "t1");
        assert_eq!(slice(text, &all[0].declared[0].span), "t1");
        let names: Vec<&str> = all[1].declared.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        assert_eq!(all[2].declared[0].count, Some(4));
        assert_eq!(all[2].declared[0].name, "p");
        assert_eq!(all[3].declared[0].name, "p");
        assert_eq!(slice(text, &all[3].declared[0].span), "%p");
        assert_eq!(all[4].modifiers.len(), 2);
        assert_eq!(all[4].declared[0].count, Some(2));
        let statement = &ptx.statements[2];
        assert_eq!(slice(text, &statement.span), ".reg .pred p<4>;");

        // `%%p` with operands names the register `%p`.
        let ptx = with("{ .reg .pred %%p; setp.eq.s32 %%p, %1, 34; @%%p mov.s32 %0, 1; }");
        assert!(ptx.errors.is_empty());
        assert_eq!(directives(&ptx)[0].declared[0].name, "p");
        let all = instructions(&ptx);
        assert_eq!(register(&all[0].operands[0]), ("p", false));
    }

    #[test]
    fn other_directives() {
        let text = ".shared .align 16 .b8 buf[256];\n.local .u32 x;\n.param .b64 arg;\n.pragma \"nounroll\";\n.maxnreg 64;\n.global .u32 table[2] = {1, 2};";
        let ptx = with(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let all = directives(&ptx);
        let names: Vec<&str> = all.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(
            names,
            [".shared", ".local", ".param", ".pragma", ".maxnreg", ".global"]
        );
        let modifiers: Vec<&str> = all[0].modifiers.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(modifiers, [".align", "16", ".b8"]);
        assert_eq!(all[0].declared[0].name, "buf");
        assert_eq!(slice(text, &all[0].declared[0].span), "buf");
        assert_eq!(slice(text, &all[0].name_span), ".shared");
        assert_eq!(all[3].modifiers[0].text, "\"nounroll\"");
        assert!(all[3].declared.is_empty());
        assert_eq!(all[4].modifiers[0].text, "64");
        assert_eq!(all[5].declared[0].name, "table");
        assert_eq!(ptx.statements.len(), 6);
        assert_eq!(
            slice(text, &ptx.statements[5].span),
            ".global .u32 table[2] = {1, 2};"
        );
    }

    #[test]
    fn mbarrier_wait_loop_in_a_scope() {
        let text = "{\n .reg .pred P1;\n LAB_WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n @P1 bra DONE;\n bra LAB_WAIT;\n DONE:\n }";
        let ptx = with(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let kinds: Vec<(&str, i32)> = ptx
            .statements
            .iter()
            .map(|s| {
                let kind = match &s.kind {
                    StatementKind::OpenBrace => "{",
                    StatementKind::CloseBrace => "}",
                    StatementKind::Directive(_) => "directive",
                    StatementKind::Label(_) => "label",
                    StatementKind::Instruction(_) => "instruction",
                };
                (kind, s.depth)
            })
            .collect();
        assert_eq!(
            kinds,
            [
                ("{", 0),
                ("directive", 1),
                ("label", 1),
                ("instruction", 1),
                ("instruction", 1),
                ("instruction", 1),
                ("label", 1),
                ("}", 0)
            ]
        );
        assert_eq!(ptx.open_braces_at_end, 0);
        assert_eq!(ptx.min_depth, 0);
        let all = instructions(&ptx);
        assert_eq!(register(&all[0].operands[0]), ("P1", false));
        assert!(all[0].has(".shared::cta"));
        assert_eq!(
            register(&all[1].guard.as_ref().unwrap().predicate),
            ("P1", false)
        );
        assert!(matches!(&all[2].operands[0].kind, OperandKind::Symbol(s) if s == "LAB_WAIT"));
    }

    #[test]
    fn realistic_templates_parse_cleanly() {
        let templates = [
            "cp.async.cg.shared.global [%0], [%1], 16;",
            "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];",
            "wgmma.fence.sync.aligned;",
            "mov.u32 %0, %%laneid;",
            "shfl.sync.bfly.b32 %0, %1, %2, 0x1f, 0xffffffff;",
            "cp.async.commit_group;\ncp.async.wait_group %0;\n",
            "{\n\t.reg .b64 %%tmp;\n\tcvta.to.shared.u64 %%tmp, %1;\n\tcvt.u32.u64 %0, %%tmp;\n}\n",
            "ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];",
            "red.global.add.f32 [%0], %1;",
            "bar.sync 0;",
            "fence.proxy.async.shared::cta;",
            "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;",
            "st.global.v2.u64 [%0+8], {%1, %2};",
            "call.uni (retval0), vprintf, (param0, param1);",
            "tex.2d.v4.f32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];",
            "prmt.b32 %0, %1, %2, 0x5410; // pack\n",
            "/* lead */ add.s32 %0, %1, -8; /* tail */",
        ];
        for text in templates {
            let ptx = with(text);
            assert!(ptx.errors.is_empty(), "{text:?}: {:?}", ptx.errors);
            assert!(!ptx.statements.is_empty(), "{text:?}");
            for (statement, instruction) in ptx.instructions() {
                assert!(instruction.terminated, "{text:?}");
                assert!(!instruction.partial);
                assert_eq!(text.as_bytes()[statement.span.end - 1], b';');
            }
        }
    }

    #[test]
    fn video_selectors_and_negated_operands() {
        let ptx = parse(
            "vadd.u32.u32.u32 %0.h0, u0.h1, 0, u1;\nvmad.s32.u32.u32 %0, -%1.h0, %2.b3, -u2;\nvadd4.u32.u32.u32 %0.b3210, u0.b7654, u1, %1;",
            PercentMode::WithOperands,
        );
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let all = instructions(&ptx);
        assert_eq!(all.len(), 3);
        assert_eq!(all[1].operands.len(), 4);
        assert!(
            matches!(&all[1].operands[3].kind, OperandKind::Register { name, .. } if name == "u2")
        );
        // Only `vmad` negates its sources.
        let ptx = parse("add.u32 %0, -%1, %2;", PercentMode::WithOperands);
        assert!(!ptx.errors.is_empty());
        // A type is no selector: a missing `;` before `and.b32` is still found.
        let ptx = parse(
            "mov.b32 u0, 1\nand.b32 u0, u0, 3;",
            PercentMode::WithOperands,
        );
        assert_eq!(ptx.errors[0].kind, SyntaxErrorKind::MissingSemicolon);
    }

    #[test]
    fn missing_semicolon_between_instructions() {
        let text = "add.u32 %0, %1, %2\n add.u32 %3, %4, %5;";
        let ptx = with(text);
        assert_eq!(ptx.errors.len(), 1, "{:?}", ptx.errors);
        assert_eq!(ptx.errors[0].kind, SyntaxErrorKind::MissingSemicolon);
        assert_eq!(ptx.errors[0].span, 20..27);
        let all = instructions(&ptx);
        assert_eq!(all.len(), 2);
        assert!(!all[0].terminated);
        assert!(all[1].terminated);
        assert_eq!(all[1].operands.len(), 3);
        assert_eq!(ptx.statements[0].span, 0..18);

        // After an instruction without operands, and before a guarded one.
        let text = "wgmma.fence.sync.aligned\nbar.sync 0;\nmov.u32 %0, 1\n@p bra.uni L;";
        let ptx = with(text);
        let spans: Vec<String> = ptx.errors.iter().map(|e| slice(text, &e.span)).collect();
        assert_eq!(spans, ["bar.sync", "bra.uni"]);
        assert_eq!(instructions(&ptx).len(), 4);
    }

    #[test]
    fn recovers_and_reports_every_error() {
        let text = "ld.global.u32 %0, [%1;\nmov.b64 {%2, %3, %4;\nadd.u32 %0, , %1;\nst.u32 [%0] %1;\nexit;";
        let ptx = with(text);
        let kinds: Vec<(SyntaxErrorKind, String)> = ptx
            .errors
            .iter()
            .map(|e| (e.kind.clone(), slice(text, &e.span)))
            .collect();
        assert_eq!(
            kinds,
            [
                (SyntaxErrorKind::Unterminated("["), "[".to_string()),
                (SyntaxErrorKind::Unterminated("{"), "{".to_string()),
                (SyntaxErrorKind::Unexpected(",".into()), ",".to_string()),
                (SyntaxErrorKind::Unexpected("%1".into()), "%1".to_string()),
            ]
        );
        let all = instructions(&ptx);
        assert_eq!(all.len(), 5);
        assert!(all.iter().all(|i| i.terminated));
        assert_eq!(all[4].base(), "exit");
    }

    #[test]
    fn scope_after_a_missing_semicolon_is_not_a_vector() {
        let text = "bar.sync 0\n{ mov.u32 %0, 1; }";
        let ptx = with(text);
        assert_eq!(ptx.errors.len(), 1);
        assert_eq!(ptx.errors[0].kind, SyntaxErrorKind::MissingSemicolon);
        assert_eq!(slice(text, &ptx.errors[0].span), "{");
        assert!(matches!(ptx.statements[1].kind, StatementKind::OpenBrace));
        assert_eq!(ptx.open_braces_at_end, 0);

        let text = "{ exit }";
        let ptx = with(text);
        assert_eq!(ptx.errors[0].kind, SyntaxErrorKind::MissingSemicolon);
        assert_eq!(ptx.errors[0].span, 7..8);
        assert_eq!(ptx.open_braces_at_end, 0);
    }

    #[test]
    fn braces_across_templates() {
        let open = with("{\n .reg .b32 t;\n mov.u32 t, %0;");
        assert_eq!(open.open_braces_at_end, 1);
        assert_eq!(open.min_depth, 0);
        assert!(open.errors.is_empty());
        assert_eq!(open.statements[2].depth, 1);

        let text = "mov.u32 %0, t;\n}\n}";
        let close = with(text);
        assert_eq!(close.open_braces_at_end, -2);
        assert_eq!(close.min_depth, -2);
        let kinds: Vec<&SyntaxErrorKind> = close.errors.iter().map(|e| &e.kind).collect();
        assert_eq!(
            kinds,
            [
                &SyntaxErrorKind::UnbalancedClose,
                &SyntaxErrorKind::UnbalancedClose
            ]
        );
        assert_eq!(close.errors[0].span, 15..16);
        let depths: Vec<i32> = close.statements.iter().map(|s| s.depth).collect();
        assert_eq!(depths, [0, -1, -2]);
    }

    #[test]
    fn percent_modes_differ() {
        let text = "mov.u64 %0, %%clock64; mov.u32 %1, %clock; %=";
        let kinds: Vec<PercentKind> = with(text).percents.into_iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [
                PercentKind::Operand {
                    index: 0,
                    modifier: None
                },
                PercentKind::Escape,
                PercentKind::Operand {
                    index: 1,
                    modifier: None
                },
                PercentKind::Register {
                    name: "clock".into()
                },
                PercentKind::Unique,
            ]
        );
        let text = "mov.u64 %rd1, %%clock64; mov.u32 %0, %clock;";
        let ptx = verbatim(text);
        let kinds: Vec<(String, PercentKind)> = ptx
            .percents
            .iter()
            .map(|p| (slice(text, &p.span), p.kind.clone()))
            .collect();
        assert_eq!(
            kinds,
            [
                (
                    "%rd1".to_string(),
                    PercentKind::Register { name: "rd1".into() }
                ),
                ("%%".to_string(), PercentKind::Escape),
                (
                    "%0".to_string(),
                    PercentKind::Operand {
                        index: 0,
                        modifier: None
                    }
                ),
                (
                    "%clock".to_string(),
                    PercentKind::Register {
                        name: "clock".into()
                    }
                ),
            ]
        );
        // The `%%clock64` operand is still read as the register it tried to name.
        let all = instructions(&ptx);
        assert_eq!(register(&all[0].operands[1]), ("clock64", true));
        assert_eq!(index(&all[1].operands[0]), 0);
    }

    #[test]
    fn operand_modifiers_are_recorded() {
        let text =
            "bra %l0; mov.u32 %0, %n1; mov.u32 %0, %c[x]; mov.u32 %0, %rd1; mov.u32 %0, %a12;";
        let ptx = with(text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let all = instructions(&ptx);
        let modifier = |o: &Operand| o.placeholder().and_then(|p| p.modifier.clone());
        assert_eq!(modifier(&all[0].operands[0]).as_deref(), Some("l"));
        assert_eq!(index(&all[0].operands[0]), 0);
        assert_eq!(modifier(&all[1].operands[1]).as_deref(), Some("n"));
        assert_eq!(slice(text, &all[1].operands[1].span), "%n1");
        let named = all[2].operands[1].placeholder().unwrap();
        assert_eq!(named.target, PlaceholderTarget::Name("x".into()));
        assert_eq!(named.modifier.as_deref(), Some("c"));
        assert_eq!(register(&all[3].operands[1]), ("rd1", false));
        assert_eq!(index(&all[4].operands[1]), 12);
        let n1 = ptx
            .percents
            .iter()
            .find(|p| slice(text, &p.span) == "%n1")
            .unwrap();
        assert_eq!(
            n1.kind,
            PercentKind::Operand {
                index: 1,
                modifier: Some("n".into())
            }
        );
    }

    #[test]
    fn placeholders_in_the_opcode_make_it_partial() {
        // `"n"(16)` and `"C"(T::value)` are substituted into the opcode by the compiler.
        let ptx =
            with("mma.sync.aligned.m16n8k%10.row.col.f32.%11.%11.f32 {%0}, {%1}, {%2}, {%0};");
        assert!(ptx.errors.is_empty());
        assert!(single(&ptx).partial);
        let ptx = parse("add.$2 $0, $1, 1;", PercentMode::Llvm);
        assert!(instructions(&ptx)[0].partial);
        // A placeholder as an operand leaves the instruction complete.
        let ptx = with("add.u32 %0, %1, %2;");
        assert!(!single(&ptx).partial);
    }

    #[test]
    fn holes_make_instructions_partial_without_errors() {
        let h = HOLE;
        // Inside an opcode.
        let text = format!("ld.{h}.v4.u32 {{%0, %1, %2, %3}}, [%4];");
        let ptx = with(&text);
        assert!(ptx.errors.is_empty());
        let ld = single(&ptx);
        assert!(ld.partial);
        assert_eq!(ld.parts[1].text, format!(".{h}"));
        assert_eq!(ld.operands.len(), 2);

        // Inside an operand: that operand becomes unknown, the others stay.
        let text = format!("ld.global.v4.u32 {{%0, %1, {h}}}, [%4];");
        let ptx = with(&text);
        let ld = single(&ptx);
        assert!(ld.partial);
        assert!(matches!(ld.operands[0].kind, OperandKind::Unknown));
        assert_eq!(
            slice(&text, &ld.operands[0].span),
            format!("{{%0, %1, {h}}}")
        );
        assert!(matches!(ld.operands[1].kind, OperandKind::Address { .. }));

        // Replacing whole statements, and hiding what would be syntax errors.
        let text = format!("mov.u32 %0, %1;\n{h}\nadd.u32 %0, %0, %2;\n{h} %0, %1 {h} bar.sync 0;");
        let ptx = with(&text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        let all = instructions(&ptx);
        let bases: Vec<(&str, bool)> = all.iter().map(|i| (i.base(), i.partial)).collect();
        let hole = h.to_string();
        assert_eq!(
            bases,
            [
                ("mov", false),
                (hole.as_str(), true),
                ("add", false),
                (hole.as_str(), true),
                ("bar", false)
            ]
        );

        // A guard or a directive with a hole.
        let text = format!("@{h} bra L; .reg .b32 {h} x y;");
        let ptx = with(&text);
        assert!(ptx.errors.is_empty(), "{:?}", ptx.errors);
        assert!(instructions(&ptx)[0].partial);
    }

    #[test]
    fn only_complete_instructions_have_a_known_form() {
        let h = HOLE;
        let ptx = with("ld.global.u32 %0, [%1];");
        let ld = single(&ptx);
        assert!(ld.is_complete());
        assert_eq!(ld.known_form().map(|f| f.family.name), Some("ld"));

        // An unknown address: the opcode's form resolves, but rules must not judge it.
        let text = format!("ld.global.u32 %0, [{h}];");
        let ptx = with(&text);
        let ld = single(&ptx);
        assert!(!ld.is_complete());
        assert!(ld.form().is_some());
        assert!(ld.known_form().is_none());

        // An unknown modifier.
        let text = format!("ld.{h}.u32 %0, [%1];");
        let ptx = with(&text);
        assert!(single(&ptx).known_form().is_none());

        // Complete, but not in the ISA.
        let ptx = with("frobnicate.u32 %0, %1;");
        let f = single(&ptx);
        assert!(f.is_complete());
        assert!(f.known_form().is_none());
    }

    #[test]
    fn comments_anywhere_and_percents_in_them_skipped() {
        let text = "add.u32 %0, /* %5 */ %1, // %6\n %2; // done %7\n/* %8 */";
        let ptx = with(text);
        let add = single(&ptx);
        assert_eq!(add.operands.len(), 3);
        assert_eq!(index(&add.operands[2]), 2);
        assert_eq!(ptx.percents.len(), 3);

        let text = "mov.u32 %0, 1; /* never closed %1";
        let ptx = with(text);
        assert_eq!(instructions(&ptx).len(), 1);
        assert_eq!(ptx.percents.len(), 1);
        assert_eq!(ptx.errors.len(), 1);
        assert_eq!(ptx.errors[0].kind, SyntaxErrorKind::Unterminated("comment"));
        assert_eq!(ptx.errors[0].span, 15..17);
    }

    #[test]
    fn unexpected_tokens_do_not_stop_the_parse() {
        let text = "# mov.u32 %0, 1; ] ; é add.u32 %0, %1, %2; 5; %0; \"open";
        let ptx = with(text);
        let unexpected: Vec<String> = ptx
            .errors
            .iter()
            .map(|e| match &e.kind {
                SyntaxErrorKind::Unexpected(t) => t.clone(),
                SyntaxErrorKind::Unterminated(what) => what.to_string(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(unexpected, ["#", "]", "é", "5", "%0", "string"]);
        assert_eq!(instructions(&ptx).len(), 4);
    }

    /// Every prefix of real templates and pseudo-random bytes: no panic, spans in bounds.
    #[test]
    fn never_panics_and_spans_stay_in_bounds() {
        let templates = [
            "{\n .reg .pred P1;\n LAB_WAIT:\n mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n @P1 bra DONE;\n bra LAB_WAIT;\n DONE:\n }",
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};",
            "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];",
            "{ .reg .pred %%p; setp.eq.s32 %%p|%%q, %1, 34; @!%%p mov.s32 %0, 1; } // c\n/* x */",
            ".shared .align 16 .b8 buf[256]; .global .u32 t[2] = {1, 2}; .pragma \"nounroll\";",
            "L_%=: ld.global.v4.u32 {%0, _, %c[x], %n1}, [%2 + -4]; bra.uni L_%=; mov.f32 %0, 0f3F800000; call (a), f, (b);",
            "ld.\u{1}.v4 {\u{1}}, [\u{1}+\u{1}]; @\u{1} \u{1}: %[ %% %= % \"str %0",
        ];
        let check = |text: &str| {
            for mode in [PercentMode::WithOperands, PercentMode::Verbatim] {
                let ptx = parse(text, mode);
                let in_bounds = |span: &Range<usize>| {
                    assert!(span.start <= span.end && span.end <= text.len(), "{text:?}");
                    let _ = &text[span.clone()];
                };
                ptx.errors.iter().for_each(|e| in_bounds(&e.span));
                ptx.percents.iter().for_each(|p| in_bounds(&p.span));
                for statement in &ptx.statements {
                    in_bounds(&statement.span);
                    if let StatementKind::Instruction(i) = &statement.kind {
                        i.parts.iter().for_each(|p| in_bounds(&p.span));
                        for operand in &i.operands {
                            operand.walk(&mut |o| in_bounds(&o.span));
                        }
                    }
                }
            }
        };
        for template in templates {
            for end in (0..=template.len()).filter(|&e| template.is_char_boundary(e)) {
                check(&template[..end]);
                check(&template[end..]);
            }
        }
        let alphabet = b"%%[]{}();,.:@!|+-_<>=\"/*\n \x01ab0x9fq$L";
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..3000 {
            let len = (seed % 40) as usize;
            let mut bytes = Vec::with_capacity(len);
            for _ in 0..len {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                bytes.push(alphabet[(seed >> 33) as usize % alphabet.len()]);
            }
            check(&String::from_utf8_lossy(&bytes));
        }
    }
}
