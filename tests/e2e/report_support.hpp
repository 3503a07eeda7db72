// What the e2e tests of augur report share (report_e2e_test.cpp, report_compare_e2e_test.cpp): Debian's
// headless Chromium found on the PATH, a page loaded in it (the DOM after the scripts ran, with the console on
// stderr, and a screenshot), and the checks every loaded page must pass.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "core/process.hpp"
#include "e2e_support.hpp"

namespace augur::e2e {

inline std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t found = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++found;
  return found;
}

inline std::string chromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    const std::string found = core::find_program(name);
    if (!found.empty()) return found;
  }
  return "";
}

// Chromium is required unless AUGUR_NO_CHROMIUM is set (then the browser part is skipped).
inline bool skip_chromium() {
  return chromium().empty() && std::getenv("AUGUR_NO_CHROMIUM") != nullptr;
}

struct Loaded {
  core::ProcessResult dump;  // --dump-dom, with the console on stderr
  core::ProcessResult screenshot;
};

inline Loaded load(const std::string& browser, const std::filesystem::path& page, const std::filesystem::path& screenshot) {
  const std::string url = "file://" + std::filesystem::absolute(page).string();
  const Arguments common{"timeout", "120", browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0"};
  Arguments dump = common, shot = common;
  dump.insert(dump.end(), {"--dump-dom", url});
  shot.insert(shot.end(), {"--screenshot=" + screenshot.string(), "--window-size=1200,2000", "--hide-scrollbars", url});
  return {core::run_process(dump), core::run_process(shot)};
}

// Loads `page` in Chromium and checks it: its scripts ran to their end without an error, every chart and
// table of the file is in the DOM, a screenshot was taken. Returns the DOM ("" when Chromium is skipped).
inline std::string check_in_chromium(const std::filesystem::path& page) {
  if (skip_chromium()) return "";
  const std::string browser = chromium();
  EXPECT_FALSE(browser.empty()) << "chromium is not installed: scripts/setup.sh installs it (apt-get install chromium); "
                                   "set AUGUR_NO_CHROMIUM=1 to skip the browser part of this test";
  if (browser.empty()) return "";
  const std::string html = read_text(page);
  const std::filesystem::path screenshot = std::filesystem::path(page).replace_extension(".png");
  const Loaded loaded = load(browser, page, screenshot);
  EXPECT_EQ(loaded.dump.exit_code, 0) << describe(loaded.dump);
  const std::string& dom = loaded.dump.standard_output;
  EXPECT_TRUE(contains(dom, "data-ready=\"1\"")) << "the page's scripts did not run to their end";
  EXPECT_FALSE(contains(dom, "data-script-error=")) << dom.substr(0, 400);
  EXPECT_FALSE(contains(loaded.dump.standard_error, "Uncaught")) << loaded.dump.standard_error;
  EXPECT_EQ(count(dom, "<svg"), count(html, "<svg"));
  EXPECT_EQ(count(dom, "<table class=\"sortable\""), count(html, "<table class=\"sortable\""));
  EXPECT_EQ(loaded.screenshot.exit_code, 0) << describe(loaded.screenshot);
  std::error_code error;
  EXPECT_GT(std::filesystem::file_size(screenshot, error), 10000u) << "no screenshot of " << page;
  return dom;
}

}  // namespace augur::e2e
