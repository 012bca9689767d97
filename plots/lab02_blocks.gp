# plots/lab02_blocks.gp -- Lab 02 figure: the block-size experiment (part
# bt): effective GB/s of the shared-memory Blelloch scan at n = 2^24 + 3
# against threads per block, beside CUB at the same n. Variables as in
# lab02_time.gp.
if (!exists("plotdir")) plotdir = "plots"
part = "bt"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab02_blocks.".fmt
pk(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN

set logscale x 2
set xrange [24:1400]
set xtics ("32" 32, "64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024)
unset mxtics
set xlabel "threads per block (tile = 8 elements per thread)"
@LINY_GBPS
set yrange [0:*]
set key inside right center
set title "Lab 02: block size of the shared-memory Blelloch scan\n".subtitle("n = 2^{24} + 3")
roof = ""
if (has_gpu) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}
@open_output
plot datafile using (pk("bt", "solution", "n")):(pk("bt", "solution", "gbps")) with linespoints lw 2 lc rgb vcolor("solution", 1) pt 7 title "Blelloch, shared memory", \
     '' using (pk("bt", "cub", "n")):(pk("bt", "cub", "gbps")) with lines lw 2 dt 3 lc rgb vcolor("cub", 1) title "CUB DeviceScan (no block size to choose)" @roof
