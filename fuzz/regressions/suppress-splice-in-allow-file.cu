asm//ptxguard:allow-file(\
)