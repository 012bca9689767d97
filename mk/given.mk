# mk/given.mk: `make given` copies the code each stub gives the student (its
# block between "given code" and "end of the given code") into the
# solution's file of the same name; tests/unit/test_given_code.sh, in make test,
# fails while the two differ.
.PHONY: given
given:
	$(Q)tests/unit/test_given_code.sh --write
