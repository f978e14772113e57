// The native search's Python binding (nanobind), shared by every game's module:
// bind_search<State>(m, cls), called by bind_game (game_binding.hpp), gives
//   _engine.SearchPolicy(weights, biases, w_out, b_out, activation)  a policy's MLP, checked
//                                                                    (.logits(obs) for tests)
//   State._ismcts(seat, seed, sims, seconds, ...) -> dict            one decision's search
// The agent (agents/search/native.py) validates the options first; everything is checked
// again here or in SearchOptions::check before the search reads it. The search runs with the
// GIL released on a copy of the state, and stops for Ctrl-C (a KeyboardInterrupt).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <vector>

#include "search.hpp"

namespace forest::native {

namespace nb = nanobind;

using Weights = nb::ndarray<const float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using Biases = nb::ndarray<const float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

inline DenseLayer dense_layer(const Weights &w, const Biases &b) {
  DenseLayer l;
  l.inputs = static_cast<int32_t>(w.shape(0));
  l.outputs = static_cast<int32_t>(w.shape(1));
  l.weights.assign(w.data(), w.data() + w.size());
  l.bias.assign(b.data(), b.data() + b.size());
  return l;
}

inline RewardMode reward_mode(const std::string &name) {
  if (name != "win" && name != "rank" && name != "score")
    throw BadInput("search: reward " + name + " is not one of win, rank, score");
  return reward_mode_from_name(name);
}

// The tree as plain data, for tests of its invariants: one tuple per node, (history, seat,
// guided visits, [(action, tries, available, reward sum, child history or -1)]).
inline nb::list tree_data(const SearchTree &tree) {
  nb::list out;
  for (int32_t h = 0; h < tree.histories(); ++h)
    for (int seat = 0; seat < tree.num_players(); ++seat) {
      const int32_t id = tree.find(h, seat);
      if (id < 0) continue;
      const SearchNode &node = tree.nodes[static_cast<size_t>(id)];
      nb::list edges;
      for (const SearchEdge &e : node.edges)
        edges.append(nb::make_tuple(e.action, e.tries, e.available, e.reward_sum, e.child));
      out.append(nb::make_tuple(h, seat, node.guided_visits, edges));
    }
  return out;
}

// The policy class, bound once: every game's module shares nanobind's registry of C++ types,
// so a second module shows the class the first one bound.
inline void bind_search_policy(nb::module_ &m) {
  if (nb::handle bound = nb::type<Mlp>(); bound.is_valid()) {
    m.attr("SearchPolicy") = bound;
    return;
  }
  nb::class_<Mlp>(m, "SearchPolicy")
      .def(
          "__init__",
          [](Mlp *self, const nb::list &weights, const nb::list &biases, const Weights &w_out, const Biases &b_out,
             const std::string &activation) {
            if (weights.size() != biases.size()) throw BadInput("policy: one bias per hidden layer");
            std::vector<DenseLayer> hidden;
            for (size_t i = 0; i < weights.size(); ++i)
              hidden.push_back(dense_layer(nb::cast<Weights>(weights[i]), nb::cast<Biases>(biases[i])));
            Activation act;
            if (activation == "Tanh") {
              act = Activation::tanh;
            } else if (activation == "ReLU") {
              act = Activation::relu;
            } else {
              throw BadInput("policy: activation " + activation + " is not Tanh or ReLU");
            }
            new (self) Mlp(std::move(hidden), dense_layer(w_out, b_out), act);
          },
          nb::arg("weights"), nb::arg("biases"), nb::arg("w_out"), nb::arg("b_out"), nb::arg("activation"))
      .def_prop_ro("inputs", &Mlp::inputs)
      .def_prop_ro("outputs", &Mlp::outputs)
      // every action's logit for one observation (what the search computes; for tests)
      .def("logits", [](const Mlp &mlp, const Biases &observation) {
        if (observation.shape(0) != static_cast<size_t>(mlp.inputs()))
          throw BadInput("policy: an observation of " + std::to_string(observation.shape(0)) + " floats, not " +
                         std::to_string(mlp.inputs()));
        MlpWork work;
        std::vector<float> out;
        mlp.features(observation.data(), work);
        mlp.logits(work, out);
        return out;
      });
}

template <class S>
void bind_search(nb::module_ &m, nb::class_<S> &cls) {
  bind_search_policy(m);
  cls.def(
      "_ismcts",
      [](const S &state, int seat, uint64_t seed, int64_t sims, double seconds, double c, int64_t depth,
         int64_t steps_left, const std::string &reward, double score_scale, std::shared_ptr<Mlp> prior,
         bool prior_at_root_only, bool widen_all, std::shared_ptr<Mlp> rollout, bool greedy, bool keep_tree) {
        SearchOptions o;
        o.sims = sims;
        o.seconds = seconds;
        o.c = c;
        o.depth = depth;
        o.steps_left = steps_left;
        o.reward = reward_mode(reward);
        o.score_scale = score_scale;
        o.seed = seed;
        o.prior = std::move(prior);
        o.prior_at_root_only = prior_at_root_only;
        o.widen_all = widen_all;
        o.rollout = std::move(rollout);
        o.greedy = greedy;
        o.poll = [] {
          nb::gil_scoped_acquire held;
          if (PyErr_CheckSignals() != 0) throw nb::python_error();
        };
        const S root(state);  // searched without the GIL: a copy Python cannot change meanwhile
        SearchResult r;
        nb::object tree = nb::none();
        {
          nb::gil_scoped_release released;
          Ismcts<S> search(root, seat, std::move(o));
          r = search.run();
          if (keep_tree) {
            nb::gil_scoped_acquire held;
            tree = tree_data(search.tree());
          }
        }
        nb::dict out;
        out["action"] = r.action;
        out["sims"] = r.sims;
        out["seconds"] = r.seconds;
        nb::dict visits, values;
        for (size_t i = 0; i < r.root_legal.size(); ++i)
          if (r.root_tries[i] > 0) {
            visits[nb::int_(r.root_legal[i])] = r.root_tries[i];
            values[nb::int_(r.root_legal[i])] = r.root_means[i];
          }
        out["visits"] = visits;
        out["values"] = values;
        out["tree"] = tree;
        return out;
      },
      nb::arg("seat"), nb::arg("seed"), nb::arg("sims"), nb::arg("seconds"), nb::arg("c"), nb::arg("depth"),
      nb::arg("steps_left"), nb::arg("reward"), nb::arg("score_scale"), nb::arg("prior").none(),
      nb::arg("prior_at_root_only"), nb::arg("widen_all"), nb::arg("rollout").none(), nb::arg("greedy"),
      nb::arg("keep_tree") = false);
}

}  // namespace forest::native
