# The two commands of the quick start are `make play` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The rules compiled to C by tools/compile.py; any change to the package recompiles them
# (`make setup PURE=1` runs everything as plain Python instead).
COMPILED := $(VENV)/.compiled
SOURCES := $(shell find obelisk -name '*.py')

.PHONY: setup play test bench clean

setup: $(COMPILED)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch first and pinned (as in the "train" extra): its CPU wheel, never a CUDA build.
	$(PY) -m pip install --quiet 'torch==2.13.0'
	$(PY) -m pip install --quiet -e '.[research,sim,server,test,compile,train]'
	touch $(STAMP)

$(COMPILED): $(STAMP) tools/compile.py $(SOURCES)
	$(PY) tools/compile.py $(if $(filter 1,$(PURE)),--clean)
	touch $(COMPILED)

play: setup
	$(VENV)/bin/obelisk serve --open

test: setup
	$(PY) -m pytest -n 2 -q

bench: setup
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) build *.egg-info
	find obelisk -name '*.so' -delete
