//! fio's arithmetic in option values, which fio works out where a value is in parentheses
//! (`bs=(2*4096)`) or holds a reserved keyword (`size=5*1024*1024*$mb_memory/8`): `+ - * / %
//! ^` and parentheses over whole numbers (whole-number division, as fio's integer options take
//! it) or decimals; a last number may carry a unit suffix when only `*` and `/` scale it
//! (`2*64k` is `128k`).

/// The value of the expression `v`, or None when it is not one dbio reads (then the value
/// is refused as what it is not).
pub fn evaluate(v: &str) -> Option<String> {
    let (expr, suffix) = split_suffix(v.trim());
    if !suffix.is_empty() && expr.contains(['+', '-', '%', '^']) {
        return None;
    }
    let mut p = Parser {
        s: expr.as_bytes(),
        at: 0,
        float: expr.contains('.'),
    };
    let n = p.expr()?;
    p.space();
    if p.at != p.s.len() {
        return None;
    }
    let text = match n {
        Num::Int(i) => i.to_string(),
        Num::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e18 => {
            (f as i64).to_string()
        }
        Num::Float(f) if f.is_finite() => f.to_string(),
        Num::Float(_) => return None,
    };
    Some(format!("{text}{suffix}"))
}

/// `body` without a unit suffix on its last number (`2*64k`: `2*64`, `k`), and the suffix.
fn split_suffix(body: &str) -> (&str, &str) {
    let end = body.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let ends_in_digit = end.ends_with(|c: char| c.is_ascii_digit());
    if ends_in_digit && !end.contains("0x") && !end.contains("0X") {
        (end, &body[end.len()..])
    } else {
        (body, "")
    }
}

/// A number being worked out: whole while every operand is.
#[derive(Clone, Copy)]
enum Num {
    Int(i128),
    Float(f64),
}

impl Num {
    fn float(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }
}

/// A recursive-descent reader of the expression: sums of products of powers.
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
    /// A decimal point appears: everything is worked out in floating point.
    float: bool,
}

impl Parser<'_> {
    fn space(&mut self) {
        while self.s.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    /// The next byte that is not space, consumed when it is one of `ops`.
    fn op(&mut self, ops: &[u8]) -> Option<u8> {
        self.space();
        let c = *self.s.get(self.at)?;
        ops.contains(&c).then(|| {
            self.at += 1;
            c
        })
    }

    fn expr(&mut self) -> Option<Num> {
        let mut a = self.term()?;
        while let Some(op) = self.op(b"+-") {
            let b = self.term()?;
            a = self.apply(op, a, b)?;
        }
        Some(a)
    }

    fn term(&mut self) -> Option<Num> {
        let mut a = self.power()?;
        while let Some(op) = self.op(b"*/%") {
            let b = self.power()?;
            a = self.apply(op, a, b)?;
        }
        Some(a)
    }

    fn power(&mut self) -> Option<Num> {
        let base = self.unary()?;
        match self.op(b"^") {
            Some(op) => {
                let exp = self.power()?;
                self.apply(op, base, exp)
            }
            None => Some(base),
        }
    }

    fn unary(&mut self) -> Option<Num> {
        if self.op(b"-").is_some() {
            return match self.unary()? {
                Num::Int(i) => Some(Num::Int(-i)),
                Num::Float(f) => Some(Num::Float(-f)),
            };
        }
        if self.op(b"(").is_some() {
            let n = self.expr()?;
            self.op(b")")?;
            return Some(n);
        }
        self.number()
    }

    fn number(&mut self) -> Option<Num> {
        self.space();
        let rest = &self.s[self.at..];
        let len = rest
            .iter()
            .take_while(|c| c.is_ascii_hexdigit() || matches!(c, b'.' | b'x' | b'X'))
            .count();
        let text = std::str::from_utf8(&rest[..len]).ok()?;
        self.at += len;
        let n = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            Some(hex) => Num::Int(i128::from_str_radix(hex, 16).ok()?),
            None if self.float => Num::Float(text.parse().ok()?),
            None => Num::Int(text.parse().ok()?),
        };
        Some(n)
    }

    fn apply(&self, op: u8, a: Num, b: Num) -> Option<Num> {
        if let (Num::Int(x), Num::Int(y)) = (a, b) {
            let v = match op {
                b'+' => x.checked_add(y),
                b'-' => x.checked_sub(y),
                b'*' => x.checked_mul(y),
                b'/' => x.checked_div(y),
                b'%' => x.checked_rem(y),
                _ => x.checked_pow(u32::try_from(y).ok()?),
            };
            return v.map(Num::Int);
        }
        let (x, y) = (a.float(), b.float());
        let v = match op {
            b'+' => x + y,
            b'-' => x - y,
            b'*' => x * y,
            b'/' if y != 0.0 => x / y,
            b'%' if y != 0.0 => x % y,
            b'^' => x.powf(y),
            _ => return None,
        };
        Some(Num::Float(v))
    }
}

#[cfg(test)]
mod tests {
    use super::evaluate;

    #[test]
    fn fio_s_arithmetic_is_worked_out() {
        let e = |v: &str| evaluate(v);
        assert_eq!(e("5*1024*1024*24000/8").as_deref(), Some("15728640000"));
        assert_eq!(e("1024*1024*24000/1024").as_deref(), Some("24576000"));
        assert_eq!(e("(2*4096)").as_deref(), Some("8192"));
        assert_eq!(e("2*64k").as_deref(), Some("128k"));
        assert_eq!(e("2*2*64k").as_deref(), Some("256k"));
        assert_eq!(e("24000").as_deref(), Some("24000"));
        assert_eq!(e("(1+2)*3^2").as_deref(), Some("27"));
        assert_eq!(e("2^3^2").as_deref(), Some("512"), "^ binds to the right");
        assert_eq!(e("10-2-3").as_deref(), Some("5"), "- binds to the left");
        assert_eq!(e("7/2").as_deref(), Some("3"), "whole numbers divide whole");
        assert_eq!(e("7.0/2").as_deref(), Some("3.5"));
        assert_eq!(e("17 % 5").as_deref(), Some("2"));
        assert_eq!(e("0x10*2").as_deref(), Some("32"));
    }

    #[test]
    fn what_is_no_arithmetic_is_left_alone() {
        for v in [
            "randread", "/dev/sdb", "1+64k", "4k-8k", "64k/2", "8*", "1/0", "(2*3", "a*b", "2*3)",
        ] {
            assert_eq!(evaluate(v), None, "{v}");
        }
    }
}
