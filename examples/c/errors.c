/* errors.c: how the C API reports errors. Each case provokes one error, checks its code, and prints its
 * message (which says what went wrong and where). Exits 0 when every error is the expected one.
 */
#include <stdio.h>
#include <string.h>

#include "oxhlo.h"

static int failures = 0;

/* Checks that `st` is an error with `code` whose message contains `needle`, prints it, frees it. */
static void expect(OxhloStatus *st, OxhloErrorCode code, const char *needle, const char *what) {
    if (st == NULL) {
        fprintf(stderr, "FAIL %s: succeeded, expected a %s error\n", what, oxhlo_error_code_name(code));
        failures++;
        return;
    }
    const char *msg = oxhlo_status_message(st);
    if (oxhlo_status_code(st) != code || strstr(msg, needle) == NULL) {
        fprintf(stderr, "FAIL %s: got %s: %s\n", what, oxhlo_error_code_name(oxhlo_status_code(st)), msg);
        failures++;
    } else {
        printf("%s -> %s\n", what, msg);
    }
    oxhlo_status_destroy(st);
}

int main(void) {
    OxhloClient *client = NULL;
    OxhloExecutable *exe = NULL;
    OxhloBuffer *wrong = NULL, *out = NULL;

    /* CUDA where no GPU is usable: an UNSUPPORTED error saying why (on a GPU machine the client is made). */
    OxhloStatus *cuda = oxhlo_client_create(OXHLO_BACKEND_CUDA, &client);
    if (cuda == NULL) {
        printf("cuda client -> created (a usable GPU is present)\n");
        oxhlo_client_destroy(client);
        client = NULL;
    } else {
        expect(cuda, OXHLO_ERROR_CODE_UNSUPPORTED, "CUDA backend unavailable", "cuda client");
    }
    expect(oxhlo_client_create(42, &client), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "OXHLO_BACKEND", "bad backend");
    expect(oxhlo_client_create(OXHLO_BACKEND_INTERPRETER, NULL), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "`out` is NULL",
           "null out");
    if (oxhlo_client_create(OXHLO_BACKEND_INTERPRETER, &client) != NULL) return 1;

    /* A parse error: the diagnostic names the source, line and column. */
    OxhloCompileOptions *opts = NULL;
    if (oxhlo_compile_options_create(&opts) != NULL) return 1;
    if (oxhlo_compile_options_set_source_name(opts, "broken.mlir") != NULL) return 1;
    OxhloStatus *st = oxhlo_compile_text(client, "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a :\n}",
                                         opts, &exe);
    if (st != NULL && oxhlo_status_num_diagnostics(st) > 0) {
        const char *d = oxhlo_status_diagnostic(st, 0);
        if (strncmp(d, "broken.mlir:", 12) != 0) {
            fprintf(stderr, "FAIL diagnostic does not name the file: %s\n", d);
            failures++;
        }
    }
    expect(st, OXHLO_ERROR_CODE_PARSE, "broken.mlir", "parse error");
    expect(oxhlo_compile_options_set_opt_level(opts, 7), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "7", "opt level 7");
    oxhlo_compile_options_destroy(opts);

    /* Bytecode is recognized by its magic number; a truncated file is a parse error at a byte offset. */
    const uint8_t bytecode[8] = {'M', 'L', 0xEF, 'R', 6, 0, 0, 0};
    expect(oxhlo_compile(client, bytecode, sizeof bytecode, NULL, &exe), OXHLO_ERROR_CODE_PARSE, "byte ",
           "truncated bytecode");
    expect(oxhlo_compile_text(NULL, "", NULL, &exe), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "`client` is NULL",
           "null client");

    /* Inputs are checked against the signature. */
    if (oxhlo_compile_text(client,
                           "func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
                           "  %0 = stablehlo.negate %a : tensor<2xf32>\n"
                           "  return %0 : tensor<2xf32>\n}",
                           NULL, &exe) != NULL)
        return 1;
    const int64_t dims3[1] = {3};
    const float three[3] = {1, 2, 3};
    if (oxhlo_buffer_create(OXHLO_DTYPE_F32, dims3, 1, three, sizeof three, &wrong) != NULL) return 1;
    const OxhloBuffer *inputs[1] = {wrong};
    expect(oxhlo_execute(exe, inputs, 1, &out, 1), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "tensor<2xf32>", "wrong shape");
    expect(oxhlo_execute(exe, inputs, 0, &out, 1), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "takes 1 input", "no inputs");
    expect(oxhlo_execute(exe, inputs, 1, &out, 2), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "num_outputs", "2 outputs");
    if (out != NULL) {
        fprintf(stderr, "FAIL outputs not NULL after an error\n");
        failures++;
    }

    /* Buffers check their sizes and values. */
    OxhloBuffer *b = NULL;
    expect(oxhlo_buffer_create(OXHLO_DTYPE_F32, dims3, 1, three, 8, &b), OXHLO_ERROR_CODE_INVALID_ARGUMENT,
           "8 bytes", "short data");
    const uint8_t sixteen = 16;
    const int64_t dims1[1] = {1};
    expect(oxhlo_buffer_create(OXHLO_DTYPE_U4, dims1, 1, &sixteen, 1, &b), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "ui4",
           "ui4 out of range");
    expect(oxhlo_buffer_create(999, dims1, 1, &sixteen, 1, &b), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "OXHLO_DTYPE",
           "bad dtype");
    const int64_t negative[1] = {-1};
    expect(oxhlo_buffer_create(OXHLO_DTYPE_U8, negative, 1, &sixteen, 1, &b), OXHLO_ERROR_CODE_INVALID_ARGUMENT,
           "dims[0]", "negative dim");
    float small[2];
    expect(oxhlo_buffer_copy_to_host(wrong, small, sizeof small), OXHLO_ERROR_CODE_INVALID_ARGUMENT, "holds 12",
           "small dst");

    /* NULL is harmless where documented. */
    oxhlo_buffer_destroy(NULL);
    oxhlo_executable_destroy(NULL);
    oxhlo_client_destroy(NULL);
    oxhlo_status_destroy(NULL);
    if (oxhlo_status_code(NULL) != OXHLO_ERROR_CODE_OK || oxhlo_buffer_rank(NULL) != 0) failures++;

    oxhlo_buffer_destroy(wrong);
    oxhlo_executable_destroy(exe);
    oxhlo_client_destroy(client);
    printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
