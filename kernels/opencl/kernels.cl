/* OpenCL C kernels of the OpenCL calibration backend: input generation, STREAM kernels on
 * double2 (16-byte) vectors with a grid-stride loop, and a local-memory tiled GEMM. The input
 * generator is the one of include/gpuplan/backend.h, so the host can recompute any element. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define SCALAR 3.0
#define TILE 16

ulong gp_hash(ulong seed, ulong index)
{
    ulong z = seed + index * 0x9e3779b97f4a7c15UL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    return z ^ (z >> 31);
}

float gp_value(ulong seed, ulong index, int bits)
{
    ulong span = (2UL << bits) + 1;
    long q = (long)(((gp_hash(seed, index) >> 32) * span) >> 32) - (long)(1UL << bits);
    return (float)q / (float)(1UL << bits);
}

/* The elements work-item get_global_id(0) handles, as a loop over `i` below `n`: a grid-stride
 * walk, where neighbouring work-items touch neighbouring elements (GPUs), or with `blocked` one
 * contiguous slice per work-item (CPU devices, where each work-item runs on one thread). */
#define FOR_EACH(i, n, blocked)                                                                    \
    for (ulong per_ = ((n) + get_global_size(0) - 1) / get_global_size(0),                        \
               i = (blocked) ? get_global_id(0) * per_ : get_global_id(0),                         \
               end_ = (blocked) ? min((ulong)(n), i + per_) : (ulong)(n),                          \
               step_ = (blocked) ? 1 : get_global_size(0);                                         \
         i < end_; i += step_)

__kernel void stream_init(__global double *a, __global double *b, __global double *c, ulong seed,
                          ulong n, int blocked)
{
    FOR_EACH(i, n, blocked)
    {
        a[i] = gp_value(seed, i, 23);
        b[i] = gp_value(seed + 1, i, 23);
        c[i] = gp_value(seed + 2, i, 23);
    }
}

/* One kernel per STREAM operation over double2 (16-byte) elements [off, off + n). */
#define STREAM_KERNEL(NAME, BODY)                                                                  \
    __kernel void NAME(__global double2 *a, __global double2 *b, __global double2 *c, ulong off,    \
                       ulong n, int blocked)                                                       \
    {                                                                                              \
        const double2 s = (double2)(SCALAR, SCALAR);                                               \
        a += off;                                                                                  \
        b += off;                                                                                  \
        c += off;                                                                                  \
        FOR_EACH(i, n, blocked)                                                                    \
        {                                                                                          \
            BODY;                                                                                  \
        }                                                                                          \
    }

STREAM_KERNEL(stream_copy, c[i] = a[i])
STREAM_KERNEL(stream_scale, b[i] = s * c[i])
STREAM_KERNEL(stream_add, c[i] = a[i] + b[i])
STREAM_KERNEL(stream_triad, a[i] = b[i] + s * c[i])

/* Sum of a[off .. off + n) (double2 elements): one partial sum per work-group. */
__kernel void stream_read(__global const double2 *a, ulong off, ulong n, int blocked,
                          __global double *partial, __local double *scratch)
{
    double2 acc = (double2)(0.0, 0.0);
    size_t lid = get_local_id(0);

    a += off;
    FOR_EACH(i, n, blocked)
    {
        acc += a[i];
    }
    scratch[lid] = acc.x + acc.y;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {
        if (lid < step)
            scratch[lid] += scratch[lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

/* x[off + i] = value i of stream `seed`, for i < n. */
__kernel void gemm_init(__global float *x, ulong off, ulong seed, ulong n, int bits, int blocked)
{
    FOR_EACH(i, n, blocked)
    {
        x[off + i] = gp_value(seed, i, bits);
    }
}

/* C (m x n) = A (m x k) * B (k x n); A and B k-major, C column-major (see backend.h); TILE x
 * TILE tiles staged in local memory.
 * The global size is rounded up to whole tiles; edges are guarded. */
__kernel void gemm_tiled(int m, int n, int k, __global const float *A, ulong a_off,
                         __global const float *B, ulong b_off, __global float *C)
{
    __local float as[TILE][TILE + 1];
    __local float bs[TILE][TILE + 1];
    int tr = get_local_id(0), tc = get_local_id(1);
    int row = get_group_id(0) * TILE + tr, col = get_group_id(1) * TILE + tc;
    float acc = 0.0f;

    A += a_off;
    B += b_off;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[tc][tr] = (row < m && p0 + tc < k) ? A[(size_t)row * k + p0 + tc] : 0.0f;
        bs[tc][tr] = (col < n && p0 + tr < k) ? B[(size_t)col * k + p0 + tr] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int p = 0; p < TILE; p++)
            acc += as[p][tr] * bs[tc][p];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < m && col < n)
        C[(size_t)col * m + row] = acc;
}
