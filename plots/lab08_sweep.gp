# plots/lab08_sweep.gp -- Lab 08 figure: the single-pass scans against CUB
# and the copy, n = 2^16 .. 2^30 (log2 x): effective bandwidth (GB/s, 8
# bytes counted per int32 element) of the tuned scan (part c, exclusive),
# CUB's DeviceScan::ExclusiveSum (the vendor rows of part c) and the
# look-back of part b, with the measured device-to-device copy bandwidth as
# the dashed roof; the right axis reads the same lines as % of that copy;
# and the parts' own roof, where their algorithm's bytes would move at the
# copy's speed (harness/parent/roofs.h: 2n words, the bytes counted, so on
# the copy's line; data measured before the roofs has none).
# The vendor library measured against (the data's '# vendor:' line, e.g.
# CCCL 3.0.1, CUDA's bundled CUB) is printed on the figure.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab08.tsv'" plots/lab08_sweep.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp), impl (the GPU
# rows: "solution" or "student"; default solution when the data has any).
# The data: `build/solutions/lab08 sweep --out plots/data/lab08.tsv`.

me = "lab08_sweep.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "c"                      # style.gp checks that this part has rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab08_sweep.".fmt

pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
if (!exists("impl")) impl = (strstrt(pairs, ":solution ") > 0 || strstrt(pairs, ":student ") == 0) ? "solution" : "student"

# The vendor library, from the data's metadata ("" when it has none).
vendor = system(sprintf("sed -n 's/^# vendor: //p' '%s' | head -n 1", datafile))
cub_name = strlen(vendor) > 0 ? sprintf("CUB ExclusiveSum (%s)", vendor) : "CUB ExclusiveSum"

# The lines: tuned (c), CUB (c's vendor rows), look-back (b).
lines = "tuned cub lookback"
lpart(k) = k eq "lookback" ? "b" : "c"
lvar(k)  = k eq "cub" ? "cub" : impl
_who(v)  = v eq "student" ? " (student)" : ""
ltitle(k) = k eq "tuned" ? "tuned single pass, part c"._who(impl) : \
            k eq "cub" ? cub_name : "decoupled look-back, part b"._who(impl)
lcolor(k) = k eq "tuned" ? "#0072B2" : k eq "cub" ? vcolor("cub", 1) : "#56B4E9"
lpoint(k) = k eq "tuned" ? 7 : k eq "cub" ? vpoint("cub", 1) : 6
_keepl(l, i, acc) = i > words(l) ? acc : \
    _keepl(l, i + 1, has_pv(lpart(word(l, i)), lvar(word(l, i))) ? acc.(strlen(acc) ? " " : "").word(l, i) : acc)
shown = _keepl(lines, 1, "")
if (words(shown) == 0) {
    exit error sprintf("%s: no rows of part c (%s or cub) in '%s'", me, impl, datafile)
}

@LOGX_N
unset logscale y
set format y '%g'
set ylabel 'effective bandwidth (GB/s, 8 bytes per element)'
set yrange [0:*]
set xrange [2**16:2**30]
set offsets graph 0.03, graph 0.03, 0, 0
set title "Lab 08: single-pass scan against CUB and the copy, int32\n". \
    subtitle(strlen(vendor) > 0 ? "yardstick ".vendor : "yardstick CUB (version not recorded)")

roof = ""
if (has_gpu) {
    set yrange [0:copy_gbps * 1.08]
    set y2range [0:108]
    set y2tics 10 nomirror
    set y2label '% of the measured copy bandwidth'
    set label 1 sprintf("device-to-device copy (roof) %.0f GB/s", copy_gbps) \
        at graph 0.02, first copy_gbps offset 0, 0.75 left front tc rgb "#202020"
    roof = ", copy_gbps with lines ls 100 notitle"
}
set key inside right bottom vertical Left reverse box opaque

# The parts' own roofs, as lab02_bw.gp draws them: one line when both
# state the same formula, over the copy's where it counts the GB/s' bytes.
algroofs = ""
if (has_gpu && has_alg) {
    do for [k in "tuned lookback"] {
        if (strstrt(" ".shown." ", " ".k." ") > 0 && !(k eq "lookback" && strstrt(algroofs, "tuned") > 0 && \
                                                        same_alg("b", "c"))) {
            algroofs = algroofs.(strlen(algroofs) ? " " : "").k
        }
    }
}
_both = words(algroofs) == 1 && strstrt(" ".shown." ", " lookback ") > 0 && same_alg("b", "c")
roof_title(k) = sprintf("%s at %s roof: %s", _both ? "(b), (c)" : "(".lpart(k).")", _both ? "their" : "its", \
                        alg_words(lpart(k)))
# (a plot clause only when there is one: gnuplot warns of an empty iteration)
algplot = words(algroofs) == 0 ? "" : \
    ', for [k in algroofs] datafile using (pickp(lpart(k), impl, "n")):(at_roof_gbps(lpart(k), impl)) ' . \
    'with lines lw 1.5 dt (6, 4) lc rgb lcolor(k) title roof_title(k)'

@open_output
plot for [i = 1:words(shown)] datafile \
        using (pickp(lpart(word(shown, i)), lvar(word(shown, i)), "n")): \
              (pickp(lpart(word(shown, i)), lvar(word(shown, i)), "gbps")) \
        with linespoints lw 2 dt vdash(lvar(word(shown, i))) \
        lc rgb lcolor(word(shown, i)) pt lpoint(word(shown, i)) \
        title ltitle(word(shown, i)) @roof @algplot
