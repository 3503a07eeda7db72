// The machine and the time of a coupling measurement (coupling_machine.hpp).
#include "coupling_machine.hpp"

#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>

namespace augur::runtime {
namespace {

std::string read_cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        std::string model = line.substr(colon + 1);
        model.erase(0, model.find_first_not_of(" \t"));
        return model;
      }
    }
  }
  utsname name{};
  return uname(&name) == 0 ? std::string(name.machine) : std::string();
}

std::int64_t sysconf_bytes(int name) {
  const long value = ::sysconf(name);
  return value > 0 ? value : 0;
}

}  // namespace

coupling::Machine describe_machine() {
  coupling::Machine machine;
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) == 0) machine.hostname = host;
  machine.cpu_model = read_cpu_model();
  machine.cores = static_cast<int>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
#ifdef _SC_LEVEL1_DCACHE_SIZE
  machine.l1d_bytes = sysconf_bytes(_SC_LEVEL1_DCACHE_SIZE);
  machine.l2_bytes = sysconf_bytes(_SC_LEVEL2_CACHE_SIZE);
  machine.l3_bytes = sysconf_bytes(_SC_LEVEL3_CACHE_SIZE);
#endif
  machine.memory_bytes = sysconf_bytes(_SC_PHYS_PAGES) * sysconf_bytes(_SC_PAGESIZE);
  return machine;
}

std::string utc_now() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  std::tm parts{};
  gmtime_r(&now.tv_sec, &parts);
  char text[48];
  const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &parts);
  std::snprintf(text + length, sizeof text - length, ".%03ldZ", now.tv_nsec / 1000000);
  return text;
}

}  // namespace augur::runtime
