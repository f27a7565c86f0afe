//! How Triton 3.6 lowers `inline_asm_elementwise` operands to registers: one home for the
//! dtype widths and the packing that `pack-mismatch` and operand sizes both use.

/// The width of a Triton dtype written `tl.float16`, `triton.language.int8`, `tl.bfloat16`...
pub fn dtype_bits(written: &str) -> Option<u32> {
    let name = written.rsplit('.').next()?.trim();
    Some(match name {
        "int1" => 1,
        "int8" | "uint8" => 8,
        n if n.starts_with("float8") => 8,
        "int16" | "uint16" | "float16" | "bfloat16" => 16,
        "int32" | "uint32" | "float32" => 32,
        "int64" | "uint64" | "float64" => 64,
        _ => return None,
    })
}

/// The output registers one result dtype of `bits` takes per call at `pack`, and the width of
/// each: elements narrower than 32 bits are packed into one register, `min(32 / bits, pack)`
/// of them (`int8` at `pack=4`: one 32-bit register; `int16` at `pack=2`: one 32-bit register;
/// `float32` at `pack=4`: four 32-bit registers).
pub fn registers(bits: u32, pack: u32) -> (u32, u32) {
    let per_register = if bits < 32 {
        (32 / bits.max(1)).min(pack).max(1)
    } else {
        1
    };
    (pack / per_register, bits * per_register)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing() {
        assert_eq!(dtype_bits("tl.bfloat16"), Some(16));
        assert_eq!(dtype_bits("triton.language.float8e4nv"), Some(8));
        assert_eq!(dtype_bits("tl.tensor"), None);
        assert_eq!(registers(8, 4), (1, 32));
        assert_eq!(registers(8, 2), (1, 16));
        assert_eq!(registers(16, 2), (1, 32));
        assert_eq!(registers(16, 4), (2, 32));
        assert_eq!(registers(32, 4), (4, 32));
        assert_eq!(registers(64, 1), (1, 64));
        assert_eq!(registers(1, 1), (1, 1));
    }
}
