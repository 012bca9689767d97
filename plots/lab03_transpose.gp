# plots/lab03_transpose.gp -- Lab 03 (bank conflicts) figure: effective
# bandwidth (GB/s, one read and one write of every float: 8 side^2 bytes) of
# the four transposes against the matrix side (log2 axis), with the device
# copy bandwidth as the dashed roof:
#   b0 naive (global memory), b1 tiled [32][32], b2 padded [32][33],
#   b3 swizzled (XOR).
# The `n` column of parts b0..b3 is the side of the square matrix.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab03.tsv'" plots/lab03_transpose.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), impl (the GPU
# rows: "solution" or "student"; default solution when the data has any),
# bw_logy (0 = linear y from 0, the default; 1 = log y).
# The parts are fixed (b0 .. b3): a `part` given is ignored.

me = "lab03_transpose.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "b0"                     # style.gp stops with a message without rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab03_transpose.".fmt
if (!exists("bw_logy")) bw_logy = 0

# pick() for an explicit part p (pick() itself uses the global `part`).
pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN
# The (part, variant) pairs of the data, as " b0:solution b1:solution ... ".
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
if (!exists("impl")) impl = (strstrt(pairs, ":solution ") > 0 || strstrt(pairs, ":student ") == 0) ? "solution" : "student"

# One line per part. Every row is variant solution, so the colours are per
# part here (Okabe-Ito, as style.gp); b3 is dashed, as it runs close to b2.
parts = "b0 b1 b2 b3"
ptitle(p) = p eq "b0" ? "naive (global memory)" : p eq "b1" ? "tiled [32][32]" : \
            p eq "b2" ? "padded [32][33]" : "swizzled (XOR)"
pcolor(p) = p eq "b0" ? "#D55E00" : p eq "b1" ? "#E69F00" : p eq "b2" ? "#0072B2" : "#009E73"
ppoint(p) = p eq "b0" ? 5 : p eq "b1" ? 9 : p eq "b2" ? 7 : 13
pdash(p)  = p eq "b3" ? 2 : vdash(impl)
do for [p in parts] {
    if (!has_pv(p, impl)) {
        exit error sprintf("%s: no '%s' rows for part '%s' (%s transpose) in '%s'", \
                           me, impl, p, ptitle(p), datafile)
    }
}
who = impl eq "student" ? " (student)" : ""

# The sides present, for a range a little wider and tics at powers of two.
pickb(c) = (strstrt(" ".parts." ", " ".strcol("part")." ") > 0 && strcol("variant") eq impl) ? column(c) : NaN
stats datafile using (pickb("n")) nooutput
x_lo = STATS_min / 1.25
x_hi = STATS_max * 1.25
set logscale x 2
set xrange [x_lo : x_hi]
set xtics 2**ceil(log(x_lo) / log(2)), 2 format "%g"
unset mxtics
set xlabel "matrix side (side x side floats)"
if (bw_logy) { @LOGY_GBPS } else { @LINY_GBPS; set yrange [0:*] }
set title "Lab 03: matrix transposes\n".subtitle("8 side^{2} bytes counted (one read, one write)")

# The roof, as in lab01_bw.gp.
roof = ""
if (has_gpu) {
    set label 1 sprintf("device copy (roof) %.0f GB/s", copy_gbps) \
        at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}

@open_output
plot for [p in parts] datafile \
        using (pickp(p, impl, "n")):(pickp(p, impl, "gbps")) \
        with linespoints lw 2 dt pdash(p) lc rgb pcolor(p) pt ppoint(p) \
        title ptitle(p).who @roof
