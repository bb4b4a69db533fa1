// cli_text_test.cpp — the CLI's real text (`lnx train | grid | exp real-text … --data text --text-dir
// DIR`, docs/engine.md "Real text"): a folder with the article's files runs, one language's file is
// enough for a run on that language, and each bad input (a missing folder, a file for a folder, a
// folder without the files, a missing, empty or too short language file, a bad --text-lang, --data
// misspelt, --text-dir where nothing reads text) exits with code 2 and a message naming the option,
// never a crash.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <sys/stat.h>

#include "cli_run.h"
#include "json.h"

#ifdef LNX_CLI
namespace lnx {
namespace {

using test::Cli;
using test::run_cli;
using test::write_temp;

// A folder under the tests' temporary folder with the given files (name → bytes); its path.
std::string text_dir(const std::string& name, const std::vector<std::pair<std::string, std::string>>& files) {
  const std::string dir = testing::TempDir() + name;
  mkdir(dir.c_str(), 0755);
  for (const auto& [file, bytes] : files) write_temp(name + "/" + file, bytes);
  return dir;
}

// Some English and Chinese text, long enough for windows of seq + 1 = 9 bytes in both splits.
std::string prose(const std::string& line, int times) {
  std::string s;
  for (int i = 0; i < times; ++i) s += line;
  return s;
}
const std::string kEn = prose("Where the norm sits sets the gradient's scale at init. ", 8);
const std::string kZh = prose("层归一化的位置决定了初始化时梯度的尺度。", 8);
const char* kModel = " --layers 1 --d 16 --d-ff 32 --seq 8 --batch 2 --steps 2";

TEST(TextCli, AFolderOfTheArticlesFilesTrains) {
  const std::string both = text_dir("lnx-cli-text-both", {{"article.en.txt", kEn}, {"article.zh.txt", kZh}});
  for (const char* lang : {"en", "zh", "both"}) {
    const Cli r =
        run_cli(std::string("train --data text --text-lang ") + lang + " --text-dir '" + both + "' --json" + kModel);
    ASSERT_EQ(r.rc, 0) << lang << "\n" << r.out;
    const json::Value v = json::parse(r.out);
    EXPECT_EQ(v.obj.at("status").str, "ok");
    // the document records the text it learned: the files' bytes
    const auto& texts = v.obj.at("text").arr;
    ASSERT_EQ(texts.size(), std::string(lang) == "both" ? 2u : 1u) << r.out;
    EXPECT_EQ(texts[0].obj.at("bytes").num, std::string(lang) == "zh" ? kZh.size() : kEn.size());
  }
  // a folder with one language's file serves a run on that language; the grid's table says which
  // plateau it drew (the text has no optimal loss)
  const std::string en = text_dir("lnx-cli-text-en", {{"article.en.txt", kEn}});
  const Cli r = run_cli("grid --data text --text-lang en --text-dir '" + en +
                        "' --placements pre --warmups 0 --lrs 0.001 --seeds 0" + kModel);
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("plateau (the text's unigram entropy)"), std::string::npos) << r.out;
}

TEST(TextCli, BadTextInputExitsWithCode2AndNamesTheOption) {
  const std::string en = text_dir("lnx-cli-text-only-en", {{"article.en.txt", kEn}});
  const std::string empty = text_dir("lnx-cli-text-empty", {{"article.en.txt", ""}, {"article.zh.txt", kZh}});
  const std::string short_ =
      text_dir("lnx-cli-text-short", {{"article.en.txt", kEn.substr(0, 40)}, {"article.zh.txt", kZh}});
  const std::string none = text_dir("lnx-cli-text-none", {{"notes.txt", kEn}});
  const std::string file = write_temp("lnx-cli-text-a-file.txt", kEn);
  const std::string train = "train --data text" + std::string(kModel);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {train + " --text-dir '" + testing::TempDir() + "no-such-folder'", "--text-dir: there is no folder '"},
      {train + " --text-dir '" + file + "'", "' is a file, not a folder"},
      {train + " --text-dir '" + none + "'", "has neither article.en.txt nor article.zh.txt"},
      {train + " --text-lang zh --text-dir '" + en + "'",
       "text_lang = zh: the article's text in \"zh\" is missing: the folder --text-dir names ('" + en +
           "') has no article.zh.txt"},
      {train + " --text-lang both --text-dir '" + en + "'",
       "text_lang = both: the article's text in \"zh\" is missing"},
      {"exp real-text --layers 1 --d 16 --d-ff 32 --seq 8 --batch 2 --steps 2 --text-dir '" + en + "'",
       "the article's text in \"zh\" is missing: the folder --text-dir names"},
      {train + " --text-dir '" + empty + "'", "text_lang = both: the article's text in \"en\" is missing: the file '" +
                                                  empty + "/article.en.txt' (--text-dir) is empty"},
      {"grid --data text --text-dir '" + empty + "'" + kModel, "(--text-dir) is empty"},
      {train + " --text-dir '" + short_ + "'",
       "seq = 8 is too long for the article's text in \"en\" (40 bytes): its held-out tenth has 4 bytes, and a window "
       "needs seq + 1 = 9"},
      {train + " --text-lang fr", "text_lang must be \"en\", \"zh\" or \"both\""},
      {"train --data txt" + std::string(kModel), "data must be \"markov\" or \"text\""},
      {"grid --data Text" + std::string(kModel), "data must be \"markov\" or \"text\""},
      {"train --text-dir '" + en + "'" + kModel,
       "--text-dir names the folder of the article's text, which this command does not read"},
      {"probe --text-dir '" + en + "'",
       "--text-dir names the folder of the article's text, which this command does not read"},
      {"exp phase-diagram --text-dir '" + en + "'", "which this command does not read"},
      {train + " --text-dir ''", "--text-dir needs a folder"},
      {train + " --text-dir", "flag --text-dir needs a value"},
  };
  for (const auto& [args, message] : cases) {
    const Cli r = run_cli(args);
    EXPECT_EQ(r.rc, 2) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("lnx: "), std::string::npos) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(message), std::string::npos) << args << "\n" << r.out;
  }
}

}  // namespace
}  // namespace lnx
#endif
