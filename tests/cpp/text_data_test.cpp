// text_data_test.cpp — the real-text data (text_data.h): the sampler reads only the training split
// and the validation only the held-out one; the unigram entropy of known strings; a text run's
// validation losses are the same bits on 1, 2 and 3 threads (and its training losses); the config's
// refusals name their field (an unknown data value, vocab ≠ 256 with text, a chain setting with text,
// a text setting with the chain, an empty or missing text).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "api.h"
#include "gemm.h"
#include "json.h"
#include "rng.h"
#include "text_data.h"

namespace lnx {
namespace {

// A text of `n` bytes whose first 90% (the training split) holds only lower-case letters and whose
// held-out tenth holds only digits.
std::string letters_then_digits(size_t n) {
  std::string s;
  const size_t train = n - n / 10;
  Rng rng(7);
  for (size_t i = 0; i < n; ++i)
    s += i < train ? static_cast<char>('a' + rng.below(26)) : static_cast<char>('0' + rng.below(10));
  return s;
}

TEST(TextData, TheSamplerReadsOnlyTheTrainingSplit) {
  const TextData text({{"en", letters_then_digits(1000)}, {"zh", letters_then_digits(400)}}, 8);
  ASSERT_EQ(text.parts()[0].train_end, 900u);
  ASSERT_EQ(text.parts()[1].train_end, 360u);
  Rng rng(1);
  std::vector<int> in, tg;
  std::vector<int> seen(256, 0);
  for (int i = 0; i < 2000; ++i) {
    text.sample(rng, 4, in, tg);
    ASSERT_EQ(in.size(), 32u);
    for (size_t k = 0; k < in.size(); ++k) {
      ASSERT_TRUE(in[k] >= 'a' && in[k] <= 'z') << in[k];
      ASSERT_TRUE(tg[k] >= 'a' && tg[k] <= 'z') << tg[k];
      if (k % 8 != 7) ASSERT_EQ(tg[k], in[k + 1]);  // targets are the inputs shifted by one
      ++seen[in[k]];
    }
  }
  for (int c = 'a'; c <= 'z'; ++c) EXPECT_GT(seen[c], 0) << static_cast<char>(c);
  // the validation windows: held-out bytes only, the same windows every time
  const int count = text.val_windows(3);
  EXPECT_EQ(count, 18);  // 16 rounded up to whole batches of 3
  std::vector<int> first_in;
  for (int first = 0; first < count; first += 3) {
    text.val_batch(first, 3, count, in, tg);
    for (size_t k = 0; k < in.size(); ++k) ASSERT_TRUE(in[k] >= '0' && in[k] <= '9' && tg[k] >= '0' && tg[k] <= '9');
    if (first == 0) first_in = in;
  }
  text.val_batch(0, 3, count, in, tg);
  EXPECT_EQ(in, first_in);
}

TEST(TextData, UnigramEntropyOfKnownStrings) {
  // training split "ab" repeated (the held-out tenth, "c…", does not count): ln 2
  std::string ab;
  for (int i = 0; i < 450; ++i) ab += "ab";
  EXPECT_NEAR(TextData({{"en", ab + std::string(100, 'c')}}, 4).unigram_entropy(), std::log(2.0), 1e-12);
  // "aabc": p = 1/2, 1/4, 1/4 → 1.5 ln 2
  std::string aabc;
  for (int i = 0; i < 225; ++i) aabc += "aabc";
  EXPECT_NEAR(TextData({{"en", aabc + std::string(100, 'z')}}, 4).unigram_entropy(), 1.5 * std::log(2.0), 1e-12);
  // one byte only: 0
  EXPECT_EQ(TextData({{"en", std::string(1000, 'x')}}, 4).unigram_entropy(), 0.0);
}

TEST(TextData, AWindowLongerThanASplitIsRefusedNamingSeq) {
  try {
    TextData({{"en", std::string(100, 'x')}}, 10);
    FAIL() << "a 100-byte text holds no held-out window of 11 bytes";
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("seq = 10"), std::string::npos) << e.what();
  }
}

TrainConfig text_train() {
  TrainConfig c;
  c.model = {2, 32, 64, 256, 16, 4, "post", Attention::Causal};
  c.steps = 12;
  c.data = "text";
  c.text_lang = "en";
  c.eval_every = 5;
  return c;
}

void register_test_text() {
  std::string s;
  Rng rng(3);
  for (int i = 0; i < 4000; ++i) s += static_cast<char>(' ' + rng.below(20) * (i % 3 == 0 ? 1 : 2));
  set_text_corpus("en", s);
}

TEST(TextData, ValidationLossesAreTheSameBitsOnAnyThreadCount) {
  register_test_text();
  const double threshold = gemm_detail::parallel_threshold();
  gemm_detail::set_parallel_threshold(0);  // every product splits over its team
  std::vector<std::vector<float>> val, loss;
  std::vector<int> steps;
  for (int t : {1, 2, 3}) {
    set_threads(t);
    TrainRun run(text_train());
    run.step(100);
    ASSERT_EQ(run.status(), RunStatus::Ok);
    val.push_back(run.val_loss());
    loss.push_back(run.loss());
    steps = run.val_steps();
  }
  gemm_detail::set_parallel_threshold(threshold);
  set_threads(1);
  EXPECT_EQ(steps, (std::vector<int>{5, 10, 12}));  // every eval_every steps and the last
  for (size_t i = 1; i < val.size(); ++i) {
    EXPECT_EQ(val[i], val[0]) << "threads " << i + 1;
    EXPECT_EQ(loss[i], loss[0]) << "threads " << i + 1;
  }
  for (float v : val[0]) EXPECT_TRUE(std::isfinite(v) && v > 0 && v < 2 * std::log(256.0));
}

TEST(TextData, ARunDocumentCarriesTheTextAndItsPlateau) {
  register_test_text();
  TrainRun run(text_train());
  run.step(100);
  const json::Value doc = json::parse(run.result_json());
  EXPECT_EQ(doc.obj.at("config").obj.at("data").str, "text");
  EXPECT_EQ(doc.obj.count("optimal_loss"), 0u);  // the text has no known best loss
  EXPECT_NEAR(doc.obj.at("uniform_loss").num, std::log(256.0), 1e-6);
  const json::Value& text = doc.obj.at("text").arr.at(0);
  EXPECT_EQ(text.obj.at("lang").str, "en");
  EXPECT_EQ(text.obj.at("bytes").num, 4000);
  EXPECT_EQ(text.obj.at("train_bytes").num, 3600);
  EXPECT_EQ(text.obj.at("fnv1a64").str.size(), 16u);
  EXPECT_NEAR(doc.obj.at("plateau_entropy").num, run.plateau_entropy(), 1e-6);
  EXPECT_EQ(doc.obj.at("val_loss").arr.size(), 3u);
  // the Markov chain's document keeps its keys
  TrainConfig m = text_train();
  m.data = "markov", m.text_lang = TrainConfig{}.text_lang, m.eval_every = TrainConfig{}.eval_every, m.model.vocab = 64;
  TrainRun chain(m);
  chain.step(100);
  const json::Value cdoc = json::parse(chain.result_json());
  EXPECT_EQ(cdoc.obj.count("optimal_loss"), 1u);
  EXPECT_EQ(cdoc.obj.count("val_loss"), 0u);
  EXPECT_EQ(cdoc.obj.count("text"), 0u);
  EXPECT_EQ(cdoc.obj.at("config").obj.count("text_lang"), 0u);  // only under data = text
}

// The message of the ArgumentError f throws ("" when none).
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const ArgumentError& e) {
    return e.what();
  }
  return "";
}

TEST(TextData, BadSettingsAreRefusedNamingTheField) {
  const auto train = [](const char* json) { return refusal([&] { train_config_from_json(json); }); };
  EXPECT_NE(train(R"({"data":"poetry"})").find("data"), std::string::npos);
  EXPECT_NE(train(R"({"data":"text","vocab":1000})").find("vocab = 1000 conflicts with data = text"),
            std::string::npos);
  EXPECT_NE(train(R"({"data":"text","successors":8})").find("successors"), std::string::npos);
  EXPECT_NE(train(R"({"text_lang":"zh"})").find("text_lang is a setting of data = text"), std::string::npos);
  EXPECT_NE(train(R"({"data":"text","text_lang":"fr"})").find("text_lang"), std::string::npos);
  EXPECT_NE(train(R"({"data":"text","eval_every":0})").find("eval_every"), std::string::npos);
  EXPECT_NE(refusal([] { grid_config_from_json(R"({"data":"text","vocab":64})"); }).find("vocab = 64"),
            std::string::npos);
  EXPECT_NE(refusal([] { set_text_corpus("en", ""); }).find("text_lang = en: the article's text is empty"),
            std::string::npos);
  EXPECT_NE(refusal([] { set_text_corpus("fr", "bonjour"); }).find("text_lang"), std::string::npos);
  // a run whose text is not registered says which
  forget_text_corpora();
  TrainConfig zh = text_train();
  zh.text_lang = "zh";
  EXPECT_NE(refusal([&] { TrainRun run(zh); }).find("text_lang = zh: the article's text in \"zh\" is not loaded"),
            std::string::npos);
}

}  // namespace
}  // namespace lnx
