# plots/lab05-common.gp -- loaded by lab05_passes.gp and lab05_bits.gp (not
# a figure: render.sh draws plots/labNN_*.gp only). Loads style.gp for the
# main data file, then finds the `lab05 passes` rows beside it (passfile)
# and names the phases.
if (!exists("plotdir")) plotdir = "plots"
if (!exists("datafile")) datafile = plotdir."/data/lab05.tsv"
part = "b"
load plotdir."/style.gp"
_slash(s, i, at) = i > strlen(s) ? at : _slash(s, i + 1, s[i:i] eq "/" ? i : at)
if (!exists("passfile")) passfile = substr(datafile, 1, _slash(datafile, 1, 0))."lab05_passes.tsv"
if (!exists("nsel")) nsel = 2**28
if (system("test -r '".passfile."' && echo yes") ne "yes") {
    exit error sprintf("lab05: cannot read '%s': build/solutions/lab05 passes --out FILE writes it", passfile)
}
# The device of the passes file, which is what these figures show.
_pdev = system("sed -n 's/^# device: //p' '".passfile."' | head -n 1")
if (strlen(_pdev) > 0) device = _pdev
# Phases: 1 the pass count and any other mark, 2 histogram (the split's
# flags), 3 scan, 4 scatter.
phase_slot(s) = (s eq "histogram" || s eq "flags") ? 2 : s eq "scan" ? 3 : s eq "scatter" ? 4 : 1
phase_title(k) = word("\"pass count, other\" \"histogram (split: flags)\" scan scatter", k)
phase_color(k) = word("#7F7F7F #E69F00 #009E73 #0072B2", k)
