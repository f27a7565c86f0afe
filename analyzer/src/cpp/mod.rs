//! The C++ side: finding asm statements, their operands and their context.
