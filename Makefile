# `make play` serves online tables with only what playing needs; `make test` installs everything the tests
# need and runs them; `make train` adds the training libraries. All three share one venv (docs/testing.md).
VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet
# The project is installed with the venv's own setuptools (put there first): no build environment is made.
INSTALL := $(PIP) --no-build-isolation -e
# One stamp per set of packages. Each set holds the one before it, so `make test` after `make play` adds to
# the venv instead of starting again, and `make play` after `make test` installs nothing.
PLAY_SET := $(VENV)/.play-set
TRAIN_SET := $(VENV)/.train-set
TEST_SET := $(VENV)/.test-set
# torch as the "train" extra pins it. On Linux x86-64 PyPI's torch is the CUDA build (about 2.7 GB with its
# libraries), so the CPU build (+cpu, about 190 MB) comes from PyTorch's CPU index; elsewhere PyPI's is taken.
ifeq ($(shell uname -sm),Linux x86_64)
TORCH := --extra-index-url https://download.pytorch.org/whl/cpu 'torch==2.13.0+cpu'
else
TORCH := 'torch==2.13.0'
endif

.PHONY: setup play train test bench clean

# The rules, the server, the terminal and the compiler (mypyc): nothing for research, training or tests.
$(PLAY_SET): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) 'setuptools>=68'
	$(INSTALL) '.[server,compile]'
	touch $@

# torch alone from its index; its dependencies come from PyPI with the rest.
$(TRAIN_SET): $(PLAY_SET)
	$(PIP) --no-deps $(TORCH)
	$(INSTALL) '.[server,compile,research,train]'
	touch $@

$(TEST_SET): $(TRAIN_SET)
	$(INSTALL) '.[server,compile,research,train,sim,test]'
	touch $@

# Serve at once; the rules compile in the background and run compiled from the next start
# (`make play PURE=1`: plain Python).
play: $(PLAY_SET)
	$(PY) tools/compile.py $(if $(filter 1,$(PURE)),--clean,--background)
	$(VENV)/bin/obelisk serve --open

train: $(TRAIN_SET)

# Everything, with the rules compiled before anything runs (`make setup PURE=1`: plain Python).
setup: $(TEST_SET)
	$(PY) tools/compile.py $(if $(filter 1,$(PURE)),--clean)

test: setup
	$(PY) -m pytest -n 2 -q --durations=25

bench: setup
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) build *.egg-info
	find obelisk -name '*.so' -delete
