//! Links libemend.so.
//!
//! The library directory comes from `EMEND_LIB_DIR`, or defaults to `<repo>/.build/release`
//! (where `swift build -c release --product emend` puts it). The directory is also written
//! into the binary's rpath so `target/debug/emend-example-engine` runs without
//! LD_LIBRARY_PATH. The release library's soname is `libemend.so.0`: the directory needs
//! that name too (a symlink to libemend.so) for the program to load.

use std::env;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=EMEND_LIB_DIR");
    println!("cargo:rerun-if-changed=build.rs");

    let dir = match env::var_os("EMEND_LIB_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => {
            let manifest = PathBuf::from(
                env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR is set by cargo"),
            );
            // examples/rust -> the repository root.
            manifest
                .join("..")
                .join("..")
                .join(".build")
                .join("release")
        }
    };
    // An rpath must be absolute: a relative one would be resolved against the directory the
    // program is started from, not the one it was built in.
    let dir = dir.canonicalize().unwrap_or_else(|error| {
        panic!(
            "emend library directory {} is not usable ({error}); build the library first \
             (swift build -c release --product emend) or set EMEND_LIB_DIR",
            dir.display()
        )
    });
    assert!(
        dir.join("libemend.so").exists(),
        "no libemend.so in {}; build the library first (swift build -c release --product emend) \
         or set EMEND_LIB_DIR to the directory that holds it",
        dir.display()
    );
    let dir = dir
        .to_str()
        .expect("the emend library directory is valid UTF-8");

    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-lib=dylib=emend");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
}
