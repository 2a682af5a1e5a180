# The two commands of the quick start are `make play` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup play test bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[research,sim,test]'
	touch $(STAMP)

play: setup
	$(VENV)/bin/obelisk play

test: setup
	$(PY) -m pytest -n 2 -q

bench: setup
	$(PY) benchmarks/engine.py

clean:
	rm -rf $(VENV) build *.egg-info
