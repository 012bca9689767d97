# plots/lab03_stride.gp -- Lab 03 (bank conflicts) figure: the stride
# microbenchmark, parts a4 (4-byte words) and a8 (8-byte words): time per
# warp-level shared-memory read against the stride (1 .. 64), measured, with
# the bank-conflict analyzer's predicted ways of conflict on the right axis
# (rows stride32 and stride64 of lab03_banks.tsv), drawn as dashed steps in
# the same colours, lighter. Both axes are logarithmic and aligned so that
# 1 way sits at the fastest 4-byte read: where the measured points follow
# the steps, the time grows as the prediction says.
# The `n` column of parts a4/a8 is the stride; time_ms covers 2^20 threads
# x 256 reads, so one warp-level read takes time_ms * 1e6 / (2^20 * 256 / 32)
# ns of the whole device's time.
# The roof, when the data has one (a "# smem_gbps:" line, written by runs
# since the shared-memory roof was measured): the measured shared-memory
# read bandwidth, drawn as the dashed line of the least time a warp-level
# read can take (128 bytes, or 256 for 8-byte words, at that bandwidth).
# Older data has none and gets no roof line.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab03.tsv'" plots/lab03_stride.gp
# Variables (all but datafile optional): datafile, device, fmt
# (png|svg|pdf), outfile, plotdir (folder of style.gp), impl (the GPU rows:
# "solution" or "student"; default solution when the data has any),
# banksfile (default: datafile with "lab03" replaced by "lab03_banks" in its
# file name, i.e. lab03_banks.tsv beside lab03.tsv; '' draws no prediction).
# The parts are fixed (a4, a8): a `part` given is ignored.

me = "lab03_stride.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "a4"                     # style.gp stops with a message without rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab03_stride.".fmt

# A file beside f, named like f with `from` replaced by `to` in the file
# name (lab03.tsv -> lab03_banks.tsv), or `to`.tsv when the name lacks `from`.
_slash(s, i, at) = i > strlen(s) ? at : _slash(s, i + 1, s[i:i] eq "/" ? i : at)
_dir(f)  = substr(f, 1, _slash(f, 1, 0))
_base(f) = substr(f, _slash(f, 1, 0) + 1, strlen(f))
_swap(b, from, to, at) = at > 0 ? substr(b, 1, at - 1).to.substr(b, at + strlen(from), strlen(b)) : to.".tsv"
sibling(f, from, to) = _dir(f)._swap(_base(f), from, to, strstrt(_base(f), from))
if (!exists("banksfile")) banksfile = sibling(datafile, "lab03", "lab03_banks")

# pick() for an explicit part p (pick() itself uses the global `part`).
pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN
# The (part, variant) pairs of the data, as " a4:solution a8:solution ... ".
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
if (!exists("impl")) impl = (strstrt(pairs, ":solution ") > 0 || strstrt(pairs, ":student ") == 0) ? "solution" : "student"
do for [p in "a4 a8"] {
    if (!has_pv(p, impl)) {
        exit error sprintf("%s: no '%s' rows for part '%s' (stride, %s-byte words) in '%s'", \
                           me, impl, p, p[2:2], datafile)
    }
}

# The predictions: rows "stride32" and "stride64" of the analyzer's file.
predict = strlen(banksfile) > 0
if (predict) {
    if (!readable(banksfile)) {
        print sprintf("%s: the analyzer writes it: build/labs/lab03 analyze --out FILE; banksfile='' draws no prediction", me)
        exit error sprintf("%s: cannot read the analyzer's predictions '%s'", me, banksfile)
    }
    whats = " "
    stats banksfile using ((strstrt(whats, " ".strcol("what")." ") == 0) \
          ? (whats = whats.strcol("what")." ", 0) : 0) nooutput
    do for [w in "stride32 stride64"] {
        if (strstrt(whats, " ".w." ") == 0) {
            exit error sprintf("%s: no '%s' rows in '%s'", me, w, banksfile)
        }
    }
}
bank(w, c) = strcol("what") eq w ? column(c) : NaN

# ns of device time per warp-level read; per part, the fastest read (1 way)
# and the top of the axes (a ratio to that base).
warp_reads = 2.0**20 * 256 / 32
ns(p) = pickp(p, impl, "time_ms") * 1e6 / warp_reads
stats datafile using (ns("a4")) nooutput
base4 = STATS_min
hi4 = (1.2 * STATS_max / base4 > 40) ? 1.2 * STATS_max / base4 : 40
stats datafile using (ns("a8")) nooutput
base8 = STATS_min
hi8 = (1.2 * STATS_max / base8 > 20) ? 1.2 * STATS_max / base8 : 20
lo = 0.75

# The shared-memory roof from the data file's header, or NaN.
_smem = system(sprintf("sed -n 's/^# smem_gbps: *//p' '%s' | head -n 1", datafile))
smem_gbps = (strlen(_smem) > 0 && _smem ne "nan") ? real(_smem) : NaN
has_roof = smem_gbps == smem_gbps && smem_gbps > 0
roof_ns(bytes) = has_roof ? bytes / smem_gbps : NaN   # GB/s is bytes per ns
# each panel's bottom: lo, or lower when the roof sits below it
lo4 = (has_roof && 0.9 * roof_ns(128) / base4 < lo) ? 0.9 * roof_ns(128) / base4 : lo
lo8 = (has_roof && 0.9 * roof_ns(256) / base8 < lo) ? 0.9 * roof_ns(256) / base8 : lo

# Colours per part (every row is variant solution): Okabe-Ito blue and
# vermillion, and the same mixed half with white for the predictions.
c4 = "#0072B2";  c4p = "#80B8D8"
c8 = "#D55E00";  c8p = "#EAAE80"
who = impl eq "student" ? " (student)" : ""

# y tics at 1, 2, 5 x 10^e (ns), whatever the device's range.
_yt = ""
do for [e = -6:4] { _yt = _yt.sprintf("%s%g, %g, %g", strlen(_yt) ? ", " : "", 10.0**e, 2 * 10.0**e, 5 * 10.0**e) }

# One panel: part p, its base and top, colours, the banks rows w. The
# predicted steps are drawn first (behind), their key entry after.
set xrange [0.5:64.5]           # histeps ends drop onto the borders
set xtics (1, 8, 16, 24, 32, 40, 48, 56, 64)
set mxtics 8
set logscale y 10
eval "set ytics (" . _yt . ") nomirror"
set format y "%g"
set mytics 10
set ylabel "ns per warp-level read" offset 1, 0
set key horizontal maxrows 1 samplen 2 width -6 nobox center center
if (predict) {
    set border 11 lw 1.2 lc rgb "#404040"       # left, bottom, right
    set logscale y2 2
    set y2tics (1, 2, 4, 8, 16, 32) nomirror out scale 0.8
    set y2label "predicted ways" offset -1.5, 0
}
_ways(bytes) = bytes eq "8" ? "predicted ways (per half-warp)" : "predicted ways"
_roof(bytes) = has_roof ? sprintf(", %.9g with lines ls 100 title 'shared-memory roof (measured %.1f TB/s)'", \
                                   roof_ns(bytes == "8" ? 256 : 128), smem_gbps / 1000) : ""
panel(p, base, lo, hi, c, cp, w, bytes) = sprintf( \
    "set yrange [%.9g : %.9g]; set y2range [%.9g : %.9g]; plot %s" . \
    "datafile using (pickp('%s', impl, 'n')):(ns('%s')) with linespoints lw 1.5 lc rgb '%s' pt 7 ps 0.75 title '%s-byte words, measured%s'%s%s", \
    lo * base, hi * base, lo, hi, \
    predict ? sprintf("banksfile using (bank('%s', 'x')):(bank('%s', 'degree')) axes x1y2 with histeps lw 3.5 lc rgb '%s' notitle, ", w, w, cp) : "", \
    p, p, c, bytes, who, \
    predict ? sprintf(", keyentry with lines lw 3.5 lc rgb '%s' title '%s-byte words, %s'", cp, bytes, _ways(bytes)) : "", \
    _roof(bytes))

@open_output
set multiplot title "Lab 03: shared-memory reads at a stride\n". \
    subtitle(predict ? "right axes aligned: 1 way = the fastest read of that width" : "no prediction drawn") \
    font sprintf("%s,%d", font_name, font_size + 4)
set lmargin at screen 0.085
set rmargin at screen 0.92
set tmargin at screen 0.825
set bmargin at screen 0.525
set key at screen 0.5, screen 0.86
set format x ""
set xlabel ""
eval panel("a4", base4, lo4, hi4, c4, c4p, "stride32", "4")
set tmargin at screen 0.425
set bmargin at screen 0.11
set key at screen 0.5, screen 0.46
set format x "%g"
set xlabel "stride (in words of the access width: 4 or 8 bytes)"
eval panel("a8", base8, lo8, hi8, c8, c8p, "stride64", "8")
unset multiplot
