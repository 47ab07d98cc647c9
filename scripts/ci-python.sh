#!/usr/bin/env bash
# The Python packages the worked command agents use (scenarios/examples/served), pinned.
# Run by .ci/run (and scripts/prerequisites.sh) before `npm test`. Under CI the tests fail when
# Python or a package is missing, naming what to install; elsewhere they skip, saying so.
PYTHON_PACKAGES=(openai==3.22.1)
if ! command -v python3 >/dev/null 2>&1; then
  echo "ci-python: python3 is missing; the command-agent tests will fail"
  return 1 2>/dev/null || exit 1
fi
python3 -m pip install --quiet --disable-pip-version-check "${PYTHON_PACKAGES[@]}" || {
  echo "ci-python: pip could not install ${PYTHON_PACKAGES[*]}; the Python agent tests will fail"
  return 1 2>/dev/null || exit 1
}
