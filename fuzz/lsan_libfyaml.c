/*
 * lsan_libfyaml.c - linked into every fuzzer and the corpus replayer:
 * every harness that reaches YAML (yaml, yaml_stream, registry, manifest,
 * ...) meets the same leak.
 *
 * libfyaml 0.7.12 (Debian 12) leaks one 1 or 2 KiB buffer on some syntax
 * error paths (reproducers: fuzz/corpus/yaml/libfyaml-error-leak,
 * fuzz/corpus/registry/libfyaml-quote-leak); a bare create/parse/destroy
 * loop leaks the same, so it is not prc's.  libfyaml is built without
 * frame pointers, so its leak stacks end inside it and can only be matched
 * by module: any allocation made inside libfyaml is suppressed, prc's own
 * allocations are still reported.  (A parser prc forgot to destroy would
 * be hidden too; prc_yaml_load destroys the parser and its diagnostics on
 * every path, through one exit label.)  The content worker is one process
 * per bounded series of requests, so the leak cannot accumulate there.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
        return "leak:libfyaml.so\n";
}
