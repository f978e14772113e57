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

// What a forward pass writes, kept by its caller between passes (no allocation per pass).
struct MlpWork {
  std::vector<float> features, next;  // a layer's activations and the next layer's
  std::vector<int32_t> nonzero;       // the inputs that are not zero
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

  // The last hidden layer's activations for ``x`` (inputs() floats) into ``work.features``
  // (with no hidden layer, x itself).
  void features(const float *x, MlpWork &work) const {
    work.features.assign(x, x + inputs_);
    for (const DenseLayer &l : hidden_) {
      work.next.resize(static_cast<size_t>(l.outputs));
      dense(l, work.features.data(), work.next.data(), work.nonzero);
      if (activation_ == Activation::tanh) {
        for (float &v : work.next) v = fast_tanh(v);
      } else {
        for (float &v : work.next) v = std::max(v, 0.0f);
      }
      work.features.swap(work.next);
    }
  }

  // tanh as a rational function (Eigen's float tanh: within a few ulps of std::tanh, and a
  // loop of it vectorizes; std::tanh was a third of a policy rollout's time).
  static float fast_tanh(float x) {
    const float c = std::clamp(x, -7.90531110763549805f, 7.90531110763549805f);
    if (std::fabs(c) < 0.0004f) return c;
    const float x2 = c * c;
    float p = -2.76076847742355e-16f;
    p = p * x2 + 2.00018790482477e-13f;
    p = p * x2 - 8.60467152213735e-11f;
    p = p * x2 + 5.12229709037114e-08f;
    p = p * x2 + 1.48572235717979e-05f;
    p = p * x2 + 6.37261928875436e-04f;
    p = p * x2 + 4.89352455891786e-03f;
    p *= c;
    float q = 1.19825839466702e-06f;
    q = q * x2 + 1.18534705686654e-04f;
    q = q * x2 + 2.26843463243900e-03f;
    q = q * x2 + 4.89352518554385e-03f;
    return p / q;
  }

 private:
  // out = x @ l.weights + l.bias, skipping the zero inputs (observations are mostly zeros).
  // Outputs are summed in blocks of kBlock held in registers across all inputs: a row-by-row
  // update loads and stores every output once per input.
  static constexpr int32_t kBlock = 16;  // four SSE registers (32 spilled to memory: 4x slower)
  static void dense(const DenseLayer &l, const float *x, float *out, std::vector<int32_t> &nonzero) {
    const size_t n = static_cast<size_t>(l.outputs);
    nonzero.clear();
    for (int32_t i = 0; i < l.inputs; ++i)
      if (x[i] != 0.0f) nonzero.push_back(i);
    size_t j0 = 0;
    for (; j0 + kBlock <= n; j0 += kBlock) {
      float acc[kBlock];
      for (int32_t j = 0; j < kBlock; ++j) acc[j] = l.bias[j0 + static_cast<size_t>(j)];
      for (int32_t i : nonzero) {
        const float v = x[i];
        const float *row = l.weights.data() + static_cast<size_t>(i) * n + j0;
        for (int32_t j = 0; j < kBlock; ++j) acc[j] += v * row[j];
      }
      for (int32_t j = 0; j < kBlock; ++j) out[j0 + static_cast<size_t>(j)] = acc[j];
    }
    for (size_t j = j0; j < n; ++j) {  // the last outputs, one at a time
      float sum = l.bias[j];
      for (int32_t i : nonzero) sum += x[i] * l.weights[static_cast<size_t>(i) * n + j];
      out[j] = sum;
    }
  }

 public:
  // One action's logit from the features.
  float logit(const MlpWork &work, int action) const {
    const std::vector<float> &features = work.features;
    check_index(action, outputs_, "policy action");
    const float *w = out_t_.data() + static_cast<size_t>(action) * static_cast<size_t>(width_);
    float sum = out_bias_[static_cast<size_t>(action)];
    for (int32_t i = 0; i < width_; ++i) sum += features[static_cast<size_t>(i)] * w[i];
    return sum;
  }

  // Every action's logit.
  void logits(const MlpWork &work, std::vector<float> &out) const {
    out.resize(static_cast<size_t>(outputs_));
    for (int32_t a = 0; a < outputs_; ++a) out[static_cast<size_t>(a)] = logit(work, a);
  }

 private:
  std::vector<DenseLayer> hidden_;
  std::vector<float> out_t_, out_bias_;
  Activation activation_;
  int32_t inputs_ = 0, width_ = 0, outputs_ = 0;
};

}  // namespace forest::native
