# tests/lib/serve_students.sh: sourced by the suites that run the check
# service end to end with students of their own (test_serve_e2e.sh,
# test_serve_slurm.sh). They set, before calling these: sd (the
# service's SERVE_DIR, with serve.db and tokens.tsv), t (their scratch
# folder), kit (the grading kit) and, for handout, url (the service's).

# tok NAME: NAME's token, from tokens.tsv
tok() { awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$sd/tokens.tsv"; }

# sql QUERY: the service's database asked QUERY, a row a line, tab-separated
sql() { python3 -c 'import sqlite3, sys; [print(*r, sep="\t") for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2])]' "$sd/serve.db" "$1"; }

# handout NAME: a copy of the grading kit as a student has it (the
# handout: no build/) in $t/NAME/kit, serve.conf naming the service, the
# token in the student's own config folder $t/NAME/config (mode 0600)
handout() {
    mkdir -p "$t/$1/kit" "$t/$1/config/primlab" &&
        tar -C "$kit" --exclude=./build -cf - . | tar -C "$t/$1/kit" -xf - &&
        echo "SERVE_URL=$url" >"$t/$1/kit/serve.conf" &&
        tok "$1" >"$t/$1/config/primlab/token" && chmod 600 "$t/$1/config/primlab/token"
}
