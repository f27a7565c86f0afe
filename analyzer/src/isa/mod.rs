//! PTX ISA knowledge as data: instruction families, operand roles and types, minimum SM/PTX.
