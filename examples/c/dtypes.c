/* dtypes.c: buffers of every element type, and a program over i8, bf16, complex<f32> and i1. Expected values
 * are worked out by hand in the comments.
 */
#include <stdio.h>
#include <string.h>

#include "oxhlo.h"

static int failures = 0;

#define CHECK(cond, ...)                          \
    do {                                          \
        if (!(cond)) {                            \
            fprintf(stderr, "FAIL: " __VA_ARGS__); \
            fprintf(stderr, "\n");                \
            failures++;                           \
        }                                         \
    } while (0)

static int ok(OxhloStatus *st) {
    if (st == NULL) return 1;
    fprintf(stderr, "error: %s\n", oxhlo_status_message(st));
    oxhlo_status_destroy(st);
    failures++;
    return 0;
}

static const char *PROGRAM =
    "func.func @main(%a: tensor<3xi8>, %b: tensor<2xbf16>, %c: tensor<2xcomplex<f32>>, %d: tensor<2xi1>)\n"
    "    -> (tensor<3xi8>, tensor<2xbf16>, tensor<2xcomplex<f32>>, tensor<2xi1>) {\n"
    "  %0 = stablehlo.add %a, %a : tensor<3xi8>\n"
    "  %1 = stablehlo.add %b, %b : tensor<2xbf16>\n"
    "  %2 = stablehlo.multiply %c, %c : tensor<2xcomplex<f32>>\n"
    "  %3 = stablehlo.not %d : tensor<2xi1>\n"
    "  return %0, %1, %2, %3 : tensor<3xi8>, tensor<2xbf16>, tensor<2xcomplex<f32>>, tensor<2xi1>\n"
    "}\n";

int main(void) {
    /* Every element type: a 2x3 buffer of zeros, its type and shape read back. */
    int n_types = 0;
    for (OxhloDtype d = 1; oxhlo_dtype_name(d) != NULL; d++) {
        uint8_t zeros[6 * 16] = {0};
        const int64_t dims[2] = {2, 3};
        size_t size = 6 * oxhlo_dtype_size(d);
        OxhloBuffer *b = NULL;
        if (!ok(oxhlo_buffer_create(d, dims, 2, zeros, size, &b))) continue;
        CHECK(oxhlo_buffer_dtype(b) == d, "dtype of %s", oxhlo_dtype_name(d));
        CHECK(oxhlo_buffer_rank(b) == 2 && oxhlo_buffer_dims(b)[0] == 2 && oxhlo_buffer_dims(b)[1] == 3, "dims");
        CHECK(oxhlo_buffer_num_elements(b) == 6 && oxhlo_buffer_size(b) == size, "size of %s", oxhlo_dtype_name(d));
        uint8_t back[6 * 16];
        memset(back, 0xAA, sizeof back);
        ok(oxhlo_buffer_copy_to_host(b, back, sizeof back));
        CHECK(memcmp(back, zeros, size) == 0, "zeros of %s", oxhlo_dtype_name(d));
        oxhlo_buffer_destroy(b);
        n_types++;
    }
    CHECK(n_types == 31, "%d element types", n_types);
    CHECK(strcmp(oxhlo_dtype_name(OXHLO_DTYPE_C64), "complex<f32>") == 0, "name of c64");

    OxhloClient *client = NULL;
    OxhloExecutable *exe = NULL;
    if (!ok(oxhlo_client_create(OXHLO_BACKEND_INTERPRETER, &client))) return 1;
    if (!ok(oxhlo_compile_text(client, PROGRAM, NULL, &exe))) return 1;
    CHECK(oxhlo_executable_num_inputs(exe) == 4 && oxhlo_executable_num_outputs(exe) == 4, "signature");
    OxhloDtype dt = 0;
    size_t rank = 9;
    const int64_t *dims = NULL;
    ok(oxhlo_executable_input_type(exe, 2, &dt, &rank, &dims));
    CHECK(dt == OXHLO_DTYPE_C64 && rank == 1 && dims[0] == 2, "input 2 type");

    const int8_t a[3] = {100, -3, 64};
    const uint16_t b[2] = {0x3FC0, 0xC000};           /* bf16 1.5, -2.0 */
    const float c[4] = {1.0f, 2.0f, 0.0f, 1.0f};      /* 1+2i, i */
    const uint8_t d[2] = {1, 0};
    const int64_t n3[1] = {3}, n2[1] = {2};
    OxhloBuffer *in[4] = {NULL, NULL, NULL, NULL}, *out[4] = {NULL, NULL, NULL, NULL};
    ok(oxhlo_buffer_create(OXHLO_DTYPE_I8, n3, 1, a, sizeof a, &in[0]));
    ok(oxhlo_buffer_create(OXHLO_DTYPE_BF16, n2, 1, b, sizeof b, &in[1]));
    ok(oxhlo_buffer_create(OXHLO_DTYPE_C64, n2, 1, c, sizeof c, &in[2]));
    ok(oxhlo_buffer_create(OXHLO_DTYPE_BOOL, n2, 1, d, sizeof d, &in[3]));
    if (ok(oxhlo_execute(exe, (const OxhloBuffer *const *)in, 4, out, 4))) {
        int8_t ra[3];
        uint16_t rb[2];
        float rc[4];
        uint8_t rd[2];
        ok(oxhlo_buffer_copy_to_host(out[0], ra, sizeof ra));
        ok(oxhlo_buffer_copy_to_host(out[1], rb, sizeof rb));
        ok(oxhlo_buffer_copy_to_host(out[2], rc, sizeof rc));
        ok(oxhlo_buffer_copy_to_host(out[3], rd, sizeof rd));
        /* i8 wraps: 200 -> -56, 128 -> -128. */
        CHECK(ra[0] == -56 && ra[1] == -6 && ra[2] == -128, "i8: %d %d %d", ra[0], ra[1], ra[2]);
        /* bf16 3.0 = 0x4040, -4.0 = 0xC080. */
        CHECK(rb[0] == 0x4040 && rb[1] == 0xC080, "bf16: %04x %04x", rb[0], rb[1]);
        /* (1+2i)^2 = -3+4i, i^2 = -1. */
        CHECK(rc[0] == -3.0f && rc[1] == 4.0f && rc[2] == -1.0f && rc[3] == 0.0f, "c64: %g %g %g %g", rc[0], rc[1],
              rc[2], rc[3]);
        CHECK(rd[0] == 0 && rd[1] == 1, "i1: %d %d", rd[0], rd[1]);
        CHECK(oxhlo_buffer_dtype(out[1]) == OXHLO_DTYPE_BF16, "output dtype");
    }
    for (int i = 0; i < 4; i++) {
        oxhlo_buffer_destroy(in[i]);
        oxhlo_buffer_destroy(out[i]);
    }
    oxhlo_executable_destroy(exe);
    oxhlo_client_destroy(client);
    printf("%d element types, %d failures\n", n_types, failures);
    return failures == 0 ? 0 : 1;
}
