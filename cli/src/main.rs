fn main() {
    std::process::exit(ptxguard::cli_main());
}
