# plots/lab02_bw.gp -- Lab 02 figure: effective GB/s against n for the
# Blelloch scans, CUB and the OpenMP reference, with the measured copy
# bandwidth as the roof. Variables as in lab02_time.gp.
if (!exists("plotdir")) plotdir = "plots"
part = "b"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab02_bw.".fmt
pk(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN

@LOGX_N
@LOGY_GBPS
set title "Lab 02: work-efficient scan, bandwidth\n".subtitle("exclusive scan, 8 bytes counted per element")
roof = ""
if (has_gpu) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}
@open_output
plot datafile using (pk("a", "solution", "n")):(pk("a", "solution", "gbps")) with linespoints lw 2 lc rgb "#CC79A7" pt 11 title "Blelloch, global memory", \
     '' using (pk("b", "solution", "n")):(pk("b", "solution", "gbps")) with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "Blelloch, shared memory", \
     '' using (pk("b", "cub", "n")):(pk("b", "cub", "gbps")) with linespoints lw 2 lc rgb vcolor("cub", 1) pt vpoint("cub", 1) title "CUB DeviceScan", \
     '' using (pk("b", "cpu_omp", "n")):(pk("b", "cpu_omp", "gbps")) with linespoints lw 2 lc rgb vcolor("cpu_omp", 1) pt vpoint("cpu_omp", 1) title "CPU OpenMP" @roof
