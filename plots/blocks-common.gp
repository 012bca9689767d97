# plots/blocks-common.gp -- the block-size figure, shared by
# plots/lab01_blocks.gp, lab04_blocks.gp and lab05_blocks.gp (the same
# drawing as lab02_blocks.gp): one part's throughput against threads per
# block (32 .. 1024, log2 axis), the time per call on the right axis, the
# vendor library at the same n as a reference when the data has it, and,
# for a bandwidth, the device copy bandwidth as the roof and the part's own
# roof, the GB/s at which its algorithm's bytes (the rows' alg_bytes, the
# same at every block size: a level line) would move at the copy's speed
# (harness/parent/roofs.h; data measured before the roofs has none). The
# `n` column of such a part is the number of threads per block; every row
# works on the same array. Not a figure of its own: plots/render.sh draws
# only labNN_*.gp.
#
# The loading script sets, before `load plotdir."/blocks-common.gp"`:
#   me         its own name, for messages ("lab01_blocks.gp")
#   blk_part   the part id ("bt")
#   blk_lab    "Lab 01", for the title
#   blk_what   what the part is, for the title and the key
#   blk_n      the element count, enhanced text ("2^{24} + 3")
#   blk_extra  more for the second title line, or ""
#   blk_vendor the vendor line's key text ("CUB DeviceScan")
#   blk_keys   0: effective GB/s with the copy roof; 1: keys per second
#              (billions), no roof (a sort is many passes: a roof would
#              squash the curve)
#   blk_len    with blk_keys = 1: the number of keys every row sorts
# and may set impl ("solution" or "student"; default solution when the part
# has any) and show_time (1, the default: time per call on the right axis).
# A data file without rows of the part (measured before the part existed)
# draws nothing: the figure is skipped with one line, gnuplot exits 0.

readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
if (exists("datafile")) {
    # the part's column found by its header name, comment lines skipped
    _rows = system(sprintf("awk -F'\t' '/^#/ { next } " . \
                           "!h { for (i = 1; i <= NF; i++) if ($i == \"part\") c = i; h = 1; next } " . \
                           "c && $c == \"%s\" { print 1; exit }' '%s'", blk_part, datafile))
    if (_rows ne "1") {
        print sprintf("%s: no rows of part '%s' in '%s' (measured before it existed): figure skipped; " . \
                      "measure them with 'make plots' on a GPU", me, blk_part, datafile)
        exit gnuplot
    }
}
part = blk_part                 # style.gp stops with a message without rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = me[1:strlen(me) - 3].".".fmt
if (!exists("show_time")) show_time = 1
if (!exists("impl"))      impl = has_variant("solution") || !has_variant("student") ? "solution" : "student"
if (!has_variant(impl)) {
    exit error sprintf("%s: no '%s' rows for part '%s' (block size) in '%s'", me, impl, blk_part, datafile)
}
who = impl eq "student" ? " (student)" : ""
c_main = vcolor(impl, 1)
c_time = "#7FB8D8"              # the same blue, lighter, for the time

# The plotted quantity: GB/s as measured, or keys per second in billions.
val(v) = blk_keys ? blk_len / (pick(v, "time_ms") * 1e6) : pick(v, "gbps")

# The best block size, for a label beside its point.
stats datafile using (pick(impl, "n")):(val(impl)) nooutput
best_t = STATS_pos_max_y
best_y = STATS_max_y
low_y  = STATS_min_y

set logscale x 2
set xrange [2**4.6 : 2**10.4]
set xtics ("32" 32, "64" 64, "128" 128, "256" 256, "512" 512, "1024" 1024)
unset mxtics
set grid noxtics nomxtics ytics mytics
set xlabel "threads per block"
if (blk_keys) {
    unset logscale y
    set format y '%g'
    set mytics 2
    set ylabel "keys sorted per second (billions)"
} else {
    @LINY_GBPS
}
set yrange [0:*]
roof_on = has_gpu && !blk_keys
# The key goes inside, below the points, when they (and the time, which
# falls as the throughput rises) stay above the key (about the lowest
# 25 %); else below the plot.
y_top = (roof_on && copy_gbps > best_y) ? copy_gbps : best_y
key_in = low_y >= 0.3 * y_top && low_y >= 0.45 * best_y
if (key_in) {
    set key inside center bottom opaque
} else {
    set key outside center bottom horizontal maxrows 2
    set bmargin 5.5
}
set title sprintf("%s: block size of the %s (n = %s)\n", blk_lab, blk_what, blk_n).subtitle(blk_extra)
set label 2 (blk_keys ? sprintf("best: %d threads, %.2f Gkeys/s", best_t, best_y) \
                      : sprintf("best: %d threads, %.0f GB/s", best_t, best_y)) \
    at first best_t, first best_y offset 0, 1.4 center front tc rgb c_main

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
vendor_plot = ""
if (has_variant("cub")) {
    vendor_plot = ", datafile using (pick('cub', 'n')):(val('cub')) with lines lw 2 dt 3 " . \
                  "lc rgb vcolor('cub', 1) title '".blk_vendor.", same n'"
}
roof = ""
if (roof_on) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) \
        at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}
# The part's own roof, as lab01_bw.gp draws it, in the rows' GB/s; its
# formula from the data's alg_ line without the size, which the title
# gives ("4n words at n = 2^24 + 3" as "4n words"); where it is the bytes
# the GB/s count, it lies on the copy's line, drawn over it, and the key
# says so. A key below the plot is one line taller for it and gets room to
# clear the axis's label.
algplot = ""
if (roof_on && has_alg) {
    stats datafile using (pick(impl, "n")):(at_roof_gbps(part, impl)) nooutput
    _w = alg_brief(part)
    _w = strstrt(_w, " at n = ") > 0 ? _w[1:strstrt(_w, " at n = ") - 1] : _w
    alg_title = sprintf("(%s)%s at its roof: %s%s", blk_part, who, _w, \
                        abs(STATS_mean_y / copy_gbps - 1) < 0.01 ? ", on the copy's line" : "")
    algplot = ", datafile using (pick(impl, 'n')):(at_roof_gbps(part, impl)) with lines lw 1.5 dt (6, 4) " . \
              "lc rgb c_main title alg_title"
    if (!key_in) { set key width -8; set bmargin 6.5 }
}

@open_output
plot datafile using (pick(impl, "n")):(val(impl)) \
        with linespoints lw 2 dt vdash(impl) lc rgb c_main pt vpoint(impl, 1) \
        title blk_what.who.(blk_keys ? "" : " (GB/s)") \
     @vendor_plot @time_plot @roof @algplot
