# plots/lab02_time.gp -- Lab 02 (Blelloch scan) figure: median time per call
# against n, log-log, for every exclusive scan of labs 01 and 02:
#   Hillis-Steele      lab 01, part c, solution rows (read from lab01.tsv)
#   Blelloch global    lab 02, part a, solution rows
#   Blelloch shared    lab 02, part b, solution rows
#   CUB, CPU serial, CPU OpenMP   lab 02, part b rows
# and parts a's and b's own roofs, as lab02_bw.gp draws them: the least
# time each part's algorithm's bytes take at the copy's speed
# (harness/parent/roofs.h: 3n + 8m words for a, 3n for b; data measured
# before the roofs has none). Hillis-Steele's is on lab01_time.gp.
# Normally run by plots/render.sh; by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab02.tsv'" plots/lab02_time.gp
# Variables (all but datafile optional): datafile, device, copy_gbps,
# fmt (png|svg|pdf), outfile, plotdir (folder of style.gp),
# lab01file (default: datafile with "lab02" replaced by "lab01" in its file
# name, i.e. lab01.tsv beside lab02.tsv; '' leaves Hillis-Steele out; a
# missing file only drops that line), impl (the GPU rows to draw:
# "solution", or "student"; default solution when the data has any).
# The parts are fixed (a, b; c of lab 01): a `part` given is ignored.

me = "lab02_time.gp"
if (!exists("plotdir")) plotdir = "plots"
readable(f) = strlen(f) > 0 && system(sprintf("test -r '%s' && echo 1 || echo 0", f)) eq "1"
if (exists("datafile") && !readable(datafile)) {
    exit error sprintf("%s: cannot read data file '%s'", me, datafile)
}
part = "b"                      # style.gp checks that this part has rows
load plotdir."/style.gp"
if (strlen(outfile) == 0) outfile = "lab02_time.".fmt

# A file beside f, named like f with `from` replaced by `to` in the file
# name (lab02.tsv -> lab01.tsv), or `to`.tsv when the name lacks `from`.
_slash(s, i, at) = i > strlen(s) ? at : _slash(s, i + 1, s[i:i] eq "/" ? i : at)
_dir(f)  = substr(f, 1, _slash(f, 1, 0))
_base(f) = substr(f, _slash(f, 1, 0) + 1, strlen(f))
_swap(b, from, to, at) = at > 0 ? substr(b, 1, at - 1).to.substr(b, at + strlen(from), strlen(b)) : to.".tsv"
sibling(f, from, to) = _dir(f)._swap(_base(f), from, to, strstrt(_base(f), from))
if (!exists("lab01file")) lab01file = sibling(datafile, "lab02", "lab01")

# pick() for an explicit part p (pick() itself uses the global `part`).
pickp(p, v, c) = (strcol("part") eq p && strcol("variant") eq v) ? column(c) : NaN

# The (part, variant) pairs of a file, as " a:solution b:cub ... ".
pairs = " "
stats datafile using ((strstrt(pairs, " ".strcol("part").":".strcol("variant")." ") == 0) \
      ? (pairs = pairs.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
has_pv(p, v) = strstrt(pairs, " ".p.":".v." ") > 0
has_part(p)  = strstrt(pairs, " ".p.":") > 0
if (!has_part("a")) {
    exit error sprintf("%s: no rows for part 'a' (Blelloch, global memory) in '%s'", me, datafile)
}
if (!exists("impl")) impl = (strstrt(pairs, ":solution ") > 0 || strstrt(pairs, ":student ") == 0) ? "solution" : "student"

# Lab 01's Hillis-Steele rows (part c, exclusive): optional.
hs_var = ""
if (strlen(lab01file) > 0) {
    if (readable(lab01file)) {
        pairs01 = " "
        stats lab01file using ((strstrt(pairs01, " ".strcol("part").":".strcol("variant")." ") == 0) \
              ? (pairs01 = pairs01.strcol("part").":".strcol("variant")." ", 0) : 0) nooutput
        hs_var = strstrt(pairs01, " c:".impl." ") > 0 ? impl : \
                 strstrt(pairs01, " c:solution ") > 0 ? "solution" : \
                 strstrt(pairs01, " c:student ") > 0 ? "student" : ""
        if (strlen(hs_var) == 0) {
            print sprintf("%s: no Hillis-Steele line: no part c solution/student rows in '%s'", me, lab01file)
        }
    } else {
        print sprintf("%s: no Hillis-Steele line: cannot read '%s'", me, lab01file)
    }
}

# The lines, by key: file, part, variant, key text, colour, point type.
# All GPU lines of this figure are "solution" rows, so the colours are
# per line here (Okabe-Ito, as style.gp); CUB and CPU keep style.gp's.
lines = "hs ag bs cub ser omp"
lfile(k) = k eq "hs" ? lab01file : datafile
lpart(k) = k eq "hs" ? "c" : k eq "ag" ? "a" : "b"
lvar(k)  = k eq "hs" ? hs_var : (k eq "ag" || k eq "bs") ? impl : \
           k eq "cub" ? "cub" : k eq "ser" ? "cpu_serial" : "cpu_omp"
_who(v)  = v eq "student" ? " (student)" : ""
ltitle(k) = k eq "hs" ? "Hillis-Steele (lab 01)"._who(lvar(k)) : \
            k eq "ag" ? "Blelloch, global memory"._who(lvar(k)) : \
            k eq "bs" ? "Blelloch, shared memory"._who(lvar(k)) : \
            k eq "cub" ? "CUB DeviceScan" : vlabel(lvar(k))
lcolor(k) = k eq "hs" ? "#CC79A7" : k eq "ag" ? "#56B4E9" : k eq "bs" ? "#0072B2" : vcolor(lvar(k), 1)
lpoint(k) = k eq "hs" ? 11 : k eq "ag" ? 6 : k eq "bs" ? 7 : vpoint(lvar(k), 1)
lshown(k) = k eq "hs" ? strlen(hs_var) > 0 : has_pv(lpart(k), lvar(k))
_keepl(l, i, acc) = i > words(l) ? acc : \
    _keepl(l, i + 1, lshown(word(l, i)) ? acc.(strlen(acc) ? " " : "").word(l, i) : acc)
shown = _keepl(lines, 1, "")
if (words(shown) == 0) {
    exit error sprintf("%s: no rows to draw in '%s' (parts a and b)", me, datafile)
}

@LOGX_N
@LOGY_MS
set title "Lab 02: exclusive scans, time\n".subtitle("Blelloch (lab 02) against Hillis-Steele (lab 01)")

# Each GPU part's own roof, as lab02_bw.gp draws it, in time: what the
# rows' time would be if the part's algorithm's bytes moved at the copy's
# speed.
algroofs = ""
if (has_gpu && has_alg) {
    do for [k in "ag bs"] {
        if (strstrt(" ".shown." ", " ".k." ") > 0) { algroofs = algroofs.(strlen(algroofs) ? " " : "").k }
    }
}
roof_title(k) = sprintf("(%s) at its roof: %s", lpart(k), alg_words(lpart(k)))
# (a plot clause only when there is one: gnuplot warns of an empty iteration)
algplot = words(algroofs) == 0 ? "" : \
    ', for [i = 1:words(algroofs)] datafile using (pickp(lpart(word(algroofs, i)), lvar(word(algroofs, i)), "n")):' . \
    '(at_roof_ms(lpart(word(algroofs, i)), lvar(word(algroofs, i)))) with lines lw 1.5 dt (6, 4) ' . \
    'lc rgb lcolor(word(algroofs, i)) title roof_title(word(algroofs, i))'
# (the times' own range, in both files: far below the launches' few
# microseconds at small n, a roof leaves the plot instead of widening it;
# the key, widened by the roofs', goes inside, to the upper left that every
# line leaves empty, its lines closer together to stay above CPU serial's)
if (words(algroofs) > 0) {
    set key inside left top opaque spacing 1.0
    _tmin = NaN
    do for [k in shown] {
        stats lfile(k) using (pickp(lpart(k), lvar(k), "time_ms")) nooutput
        _tmin = (_tmin == _tmin && _tmin <= STATS_min) ? _tmin : STATS_min
    }
    set yrange [10**floor(log10(_tmin)) : *]
}

@open_output
plot for [i = 1:words(shown)] lfile(word(shown, i)) \
        using (pickp(lpart(word(shown, i)), lvar(word(shown, i)), "n")): \
              (pickp(lpart(word(shown, i)), lvar(word(shown, i)), "time_ms")) \
        with linespoints lw 2 dt vdash(lvar(word(shown, i))) \
        lc rgb lcolor(word(shown, i)) pt lpoint(word(shown, i)) \
        title ltitle(word(shown, i)) @algplot
