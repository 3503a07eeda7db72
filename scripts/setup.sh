#!/usr/bin/env bash
# Installs every Debian package augur needs to build, test and benchmark.
# Idempotent; run as root on Debian 12 (bookworm). Usage: scripts/setup.sh
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkgconf
  libgtest-dev libgmock-dev libbenchmark-dev
  libcli11-dev nlohmann-json3-dev
  libsqlite3-dev
  libeigen3-dev gnuplot-nox
  valgrind
  chromium
  zsh
  openmpi-bin libopenmpi-dev
  libpapi-dev
  clang libclang-rt-14-dev libomp-dev
)

if [ "$(id -u)" -ne 0 ]; then
  echo "setup.sh: must run as root (it installs Debian packages with apt-get)" >&2
  exit 1
fi

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "setup.sh: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
