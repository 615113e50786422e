#!/usr/bin/env bash
# Installs the pinned schemathesis from PyPI into a venv cached under $HOME/.cache (reused between
# runs) and prints the path of its executable.
set -euo pipefail
VERSION=4.32.5
VENV="${HOME}/.cache/onramp-ci/schemathesis-${VERSION}"
if ! "${VENV}/bin/schemathesis" --version > /dev/null 2>&1; then
  rm -rf "${VENV}"
  mkdir -p "$(dirname "${VENV}")"
  python3 -m venv "${VENV}" >&2
  "${VENV}/bin/pip" install --quiet --disable-pip-version-check "schemathesis==${VERSION}" >&2
fi
echo "${VENV}/bin/schemathesis"
