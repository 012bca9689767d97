# plots/lab03_transpose.gp -- Lab 03 figure: effective GB/s of the four
# transposes against the matrix side (8 bytes counted per element), with the
# measured copy bandwidth as the roof. Variables as in lab03_stride.gp.
if (!exists("plotdir")) plotdir = "plots"
part = "b2"
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab03_transpose.".fmt
pk(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN

set logscale x 2
set format x "2^{%L}"
set xlabel "matrix side (float, side x side)"
@LINY_GBPS
set yrange [0:*]
set title "Lab 03: matrix transpose through shared memory\n".subtitle("read + write counted")
roof = ""
if (has_gpu) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}
@open_output
plot datafile using (pk("b0", "solution", "n")):(pk("b0", "solution", "gbps")) with linespoints lw 2 lc rgb "#CC79A7" pt 11 title "naive (global memory)", \
     '' using (pk("b1", "solution", "n")):(pk("b1", "solution", "gbps")) with linespoints lw 2 lc rgb "#D55E00" pt 9 title "tile[32][32] (32-way conflicts)", \
     '' using (pk("b2", "solution", "n")):(pk("b2", "solution", "gbps")) with linespoints lw 2 lc rgb "#0072B2" pt 7 title "padded tile[32][33]", \
     '' using (pk("b3", "solution", "n")):(pk("b3", "solution", "gbps")) with linespoints lw 2 dt 2 lc rgb "#009E73" pt 13 title "swizzled tile (column XOR row)" @roof
