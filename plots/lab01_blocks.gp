# plots/lab01_blocks.gp -- Lab 01 (Hillis-Steele scan) figure: the
# block-size experiment (part bt): effective GB/s of the hierarchical
# inclusive scan against threads per block, the time per call on the right
# axis, CUB at the same n, and the device copy bandwidth as the roof.
# Drawn by plots/blocks-common.gp (its header lists the variables); run by
# plots/render.sh, or by hand from the repo root:
#   gnuplot -e "datafile='plots/data/lab01.tsv'" plots/lab01_blocks.gp
# Variables: datafile, device, copy_gbps, fmt, outfile, plotdir, impl,
# show_time. Data measured before part bt existed: the figure is skipped.

me = "lab01_blocks.gp"
if (!exists("plotdir")) plotdir = "plots"
blk_part = "bt"
blk_lab = "Lab 01"
blk_what = "hierarchical Hillis-Steele scan"
blk_n = "2^{24} + 3"            # the size the lab 01 harness runs part bt at
blk_extra = ""
blk_vendor = "CUB DeviceScan"
blk_keys = 0
load plotdir."/blocks-common.gp"
