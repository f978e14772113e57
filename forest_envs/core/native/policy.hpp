// A trained policy's multilayer perceptron in C++, for the native search's policy prior and
// policy rollouts: the layers agents/policy.py's NumpyPolicy plays (w0, b0, ..., w_out,
// b_out; tanh or ReLU after every hidden layer), the same arithmetic in float32 (the sums are
// taken in another order than numpy's matrix product, so a logit may differ in its last
// bits). A policy with a cell network (train/cellpolicy.py) is not played here.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "checked.hpp"

namespace forest::native {

enum class Activation { tanh, relu };

// One dense layer: ``weights`` is inputs x outputs, row-major (numpy's w: x @ w + b).
struct DenseLayer {
  int32_t inputs = 0, outputs = 0;
  std::vector<float> weights;
  std::vector<float> bias;
};

class Mlp {
 public:
  // ``hidden`` (in order) then ``out``; throws BadInput unless the shapes chain.
  Mlp(std::vector<DenseLayer> hidden, DenseLayer out, Activation activation)
      : hidden_(std::move(hidden)), activation_(activation) {
    std::vector<const DenseLayer *> all;
    for (const auto &l : hidden_) all.push_back(&l);
    all.push_back(&out);
    for (const DenseLayer *l : all) {
      if (l->inputs <= 0 || l->outputs <= 0 ||
          l->weights.size() != static_cast<size_t>(l->inputs) * static_cast<size_t>(l->outputs) ||
          l->bias.size() != static_cast<size_t>(l->outputs))
        throw BadInput("policy: a layer's weights and bias do not match its shape");
    }
    for (size_t i = 1; i < all.size(); ++i)
      if (all[i]->inputs != all[i - 1]->outputs) throw BadInput("policy: layer shapes do not chain");
    inputs_ = all.front()->inputs;
    width_ = out.inputs;
    outputs_ = out.outputs;
    // the output layer transposed (outputs x width): one action's logit is a contiguous dot
    // product, so a rollout computes the logits of its legal actions alone
    out_t_.resize(out.weights.size());
    for (int32_t i = 0; i < width_; ++i)
      for (int32_t j = 0; j < outputs_; ++j)
        out_t_[static_cast<size_t>(j) * static_cast<size_t>(width_) + static_cast<size_t>(i)] =
            out.weights[static_cast<size_t>(i) * static_cast<size_t>(outputs_) + static_cast<size_t>(j)];
    out_bias_ = out.bias;
  }

  int32_t inputs() const { return inputs_; }
  int32_t outputs() const { return outputs_; }

  // The last hidden layer's activations for ``x`` (inputs() floats) into ``features``
  // (width floats; with no hidden layer, x itself). ``scratch`` is reused between calls.
  void features(const float *x, std::vector<float> &features, std::vector<float> &scratch) const {
    features.assign(x, x + inputs_);
    for (const DenseLayer &l : hidden_) {
      scratch.assign(l.bias.begin(), l.bias.end());
      float *out = scratch.data();
      const size_t n = static_cast<size_t>(l.outputs);
      for (int32_t i = 0; i < l.inputs; ++i) {
        const float v = features[static_cast<size_t>(i)];
        if (v == 0.0f) continue;  // observations are mostly zeros
        const float *row = l.weights.data() + static_cast<size_t>(i) * n;
        for (size_t j = 0; j < n; ++j) out[j] += v * row[j];
      }
      if (activation_ == Activation::tanh) {
        for (size_t j = 0; j < n; ++j) out[j] = std::tanh(out[j]);
      } else {
        for (size_t j = 0; j < n; ++j) out[j] = std::max(out[j], 0.0f);
      }
      features.swap(scratch);
    }
  }

  // One action's logit from the features.
  float logit(const std::vector<float> &features, int action) const {
    check_index(action, outputs_, "policy action");
    const float *w = out_t_.data() + static_cast<size_t>(action) * static_cast<size_t>(width_);
    float sum = out_bias_[static_cast<size_t>(action)];
    for (int32_t i = 0; i < width_; ++i) sum += features[static_cast<size_t>(i)] * w[i];
    return sum;
  }

  // Every action's logit.
  void logits(const std::vector<float> &features, std::vector<float> &out) const {
    out.resize(static_cast<size_t>(outputs_));
    for (int32_t a = 0; a < outputs_; ++a) out[static_cast<size_t>(a)] = logit(features, a);
  }

 private:
  std::vector<DenseLayer> hidden_;
  std::vector<float> out_t_, out_bias_;
  Activation activation_;
  int32_t inputs_ = 0, width_ = 0, outputs_ = 0;
};

}  // namespace forest::native
