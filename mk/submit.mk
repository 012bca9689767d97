# mk/submit.mk: `make submit`, the check service's client (issue 55;
# docs/check-service.md, harness/submit.sh): a lab sent to the course's
# GPU host, its report back; the name the leaderboard shows. It builds
# nothing and needs no CUDA: a student's laptop without a GPU or nvcc
# runs it (the Makefile asks nothing of the CUDA toolkit when it reads
# its rules).
#
#   make submit LAB=01            send lab 01, wait, print its report
#   make submit LAB=01 WAIT=0     send it, print the job's id
#   make submit JOB=17            wait for job 17 and fetch its report
#   make submit NAME='Ada L.'     the leaderboard shows you as Ada L.
#   make submit NAME=             ... under your pseudonym again
#
# NAME counts only on make's command line ($(origin), which tells NAME=
# from no NAME at all), never from the environment, where WSL puts the
# computer's name; it reaches the script whole through the environment
# ($(value): no $ in it expanded, no quote or line break to break the
# shell's line). SERVE_URL (else the kit's serve.conf), PRIMLAB_TOKEN
# (else ~/.config/primlab/token), SUBMIT_DIR (build/submit), SUBMIT_POLL
# (seconds) reach the script from the environment or the command line.
.PHONY: submit
submit: export PL_SUBMIT_NAME = $(value NAME)
submit:
	$(Q)WAIT="$(WAIT)" harness/submit.sh $(if $(filter command line,$(origin NAME)),--name "$$PL_SUBMIT_NAME") \
	    "$(strip $(LAB))" "$(strip $(JOB))"
