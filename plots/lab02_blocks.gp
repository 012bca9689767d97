# plots/lab02_blocks.gp -- Lab 02 (Blelloch scan) figure: the block-size
# experiment (part bt): effective GB/s of the shared-memory Blelloch scan
# against threads per block (32 .. 1024, log2 axis), the time per call on
# the right axis, CUB at the same n as a reference when the data has it,
# the device copy bandwidth as the roof, and the part's own roof, the GB/s
# at which its algorithm's 3n words (the rows' alg_bytes) would move at the
# copy's speed, a level line (harness/parent/roofs.h; data measured before
# the roofs has none), as plots/blocks-common.gp draws it for labs 01 and
# 04. The `n` column of part bt is the number of threads per block; every
# row scans the same n elements.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab02.tsv'" plots/lab02_blocks.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), impl (the GPU
# rows: "solution" or "student"; default solution when part bt has any),
# bt_n (the element count for the title, enhanced text; default
# "2^{24} + 3", the size the lab 02 harness runs part bt at),
# show_time (1 = time per call on the right axis, the default; 0 = none).
# The part is fixed (bt): a `part` given is ignored.

me = "lab02_blocks.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "bt"                     # style.gp stops with a message without rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab02_blocks.".fmt
if (!exists("bt_n"))      bt_n = "2^{24} + 3"
if (!exists("show_time")) show_time = 1
if (!exists("impl"))      impl = has_variant("solution") || !has_variant("student") ? "solution" : "student"
if (!has_variant(impl)) {
    exit error sprintf("%s: no '%s' rows for part 'bt' (block size) in '%s'", me, impl, datafile)
}
who = impl eq "student" ? " (student)" : ""
c_gbps = vcolor(impl, 1)
c_time = "#7FB8D8"              # the same blue, lighter, for the time

# The best block size, for a label beside its point.
stats datafile using (pick(impl, "n")):(pick(impl, "gbps")) nooutput
best_t = STATS_pos_max_y
best_g = STATS_max_y
low_g  = STATS_min_y

set logscale x 2
set xrange [2**4.6 : 2**10.4]
set xtics ("32" 32, "64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024)
unset mxtics
set grid noxtics nomxtics ytics mytics
set xlabel "threads per block"     # the tile per thread depends on the build
@LINY_GBPS
set yrange [0:*]
# The key goes inside, below the points, when they (and the time, which
# falls as GB/s rises) stay above the key (about the lowest 25 %); else below it.
y_top = (has_gpu && copy_gbps > best_g) ? copy_gbps : best_g
key_in = low_g >= 0.3 * y_top && low_g >= 0.45 * best_g
if (key_in) {
    set key inside center bottom opaque
} else {
    set key outside center bottom horizontal maxrows 2
    set bmargin 5.5
}
set title "Lab 02: block size of the shared-memory Blelloch scan (n = ".bt_n.")\n".subtitle("")
set label 2 sprintf("best: %d threads, %.0f GB/s", best_t, best_g) \
    at first best_t, first best_g offset 0, 1.4 center front tc rgb c_gbps

time_plot = ""
if (show_time) {
    set border 11 lw 1.2 lc rgb "#404040"   # left, bottom, right
    set y2tics nomirror out scale 0.8 format "%g" tc rgb "#3F7FA8"
    set y2range [0:*]
    set y2label "time per call (ms, median)" tc rgb "#3F7FA8" offset -1, 0
    set ytics nomirror
    time_plot = ", datafile using (pick(impl, 'n')):(pick(impl, 'time_ms')) axes x1y2 " . \
                "with linespoints lw 1.5 dt 2 pt 6 ps 1.1 lc rgb c_time title 'time per call (right axis)'"
}
cub_plot = ""
if (has_variant("cub")) {
    cub_plot = ", datafile using (pick('cub', 'n')):(pick('cub', 'gbps')) with lines lw 2 dt 3 " . \
               "lc rgb vcolor('cub', 1) title 'CUB DeviceScan, same n'"
}
roof = ""
if (has_gpu) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) \
        at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}
# The part's own roof, as plots/blocks-common.gp draws it.
algplot = ""
if (has_gpu && has_alg) {
    _w = alg_brief("bt")
    _w = strstrt(_w, " at n = ") > 0 ? _w[1:strstrt(_w, " at n = ") - 1] : _w
    alg_title = sprintf("(bt)%s at its roof: %s", who, _w)
    algplot = ", datafile using (pick(impl, 'n')):(at_roof_gbps('bt', impl)) with lines lw 1.5 dt (6, 4) " . \
              "lc rgb c_gbps title alg_title"
    if (!key_in) { set key width -8; set bmargin 6.5 }
}

@open_output
plot datafile using (pick(impl, "n")):(pick(impl, "gbps")) \
        with linespoints lw 2 dt vdash(impl) lc rgb c_gbps pt vpoint(impl, 1) \
        title "Blelloch, shared memory".who." (GB/s)" \
     @cub_plot @time_plot @roof @algplot
