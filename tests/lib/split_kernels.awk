# tests/lib/split_kernels.awk: split a one-file lab solution the way students
# split their code, for tests/grading/test_submission_files.sh:
#   awk -v K=kernels.cu -v H=kernels.cuh -v M=main.cu -f tests/lib/split_kernels.awk prefix_sum.cu
# Each __global__ function (from its first line to the "}" that starts a
# line) goes to K, its declaration to H after the file's preamble (what
# comes before the first kernel: includes, macros); the rest goes to M.
# The caller puts #include "H" at the top of K and M.
BEGIN { state = "pre" }
state != "kernel" && /^__global__ / { state = "kernel"; sig = ""; insig = 1 }
state == "kernel" {
    print > K
    if (insig) {
        sig = sig (sig == "" ? "" : "\n") $0
        if ($0 ~ /\)/) { insig = 0; sub(/[ \t]*$/, "", sig); print sig ";" > H }
    }
    if ($0 ~ /^}/) state = "post"
    next
}
state == "pre" { print > H; next }
{ print > M }
