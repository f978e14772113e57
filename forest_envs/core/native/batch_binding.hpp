// The Python binding of Batch<S> (batch.hpp), shared by every game: bind_game
// (game_binding.hpp) calls ``bind_batch<State>(m)``. Thin: the output arrays are made here once (numpy, C-contiguous,
// kept for the batch's life and shown as attributes), actions are checked to be a 1-d integer
// array of one action per env, and the GIL is released while the envs step. The Python class
// over it is forest_envs/envs/vector.py's BatchedEnv.
#pragma once

#include <nanobind/stl/optional.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "batch.hpp"
#include "binding.hpp"

namespace forest::native {

template <>
constexpr int npy_type<int32_t>() { return NPY_INT32; }
template <>
constexpr int npy_type<bool>() { return NPY_BOOL; }
template <>
constexpr int npy_type<int64_t>() { return NPY_INT64; }
static_assert(sizeof(bool) == 1, "numpy's bool is one byte");

// A new zeroed C-contiguous numpy array of ``dims`` items of T.
template <class T>
nb::object zeros_array(std::vector<npy_intp> dims, T *&data) {
  PyObject *arr = PyArray_ZEROS(static_cast<int>(dims.size()), dims.data(), npy_type<T>(), 0);
  if (!arr) throw nb::python_error();
  data = static_cast<T *>(PyArray_DATA(reinterpret_cast<PyArrayObject *>(arr)));
  return nb::steal(arr);
}

// One action per env as an int64 array: a 1-d array (or sequence) of integers; bools and
// floats are refused as the engines refuse them, so 0.9 is never taken for action 0.
inline nb::object actions_array(nb::handle actions, int num_envs) {
  PyObject *any = PyArray_FROM_O(actions.ptr());
  if (!any) throw nb::python_error();
  nb::object held = nb::steal(any);
  auto *arr = reinterpret_cast<PyArrayObject *>(any);
  const int type = PyArray_TYPE(arr);
  if (!PyArray_ISINTEGER(arr) || type == NPY_UINT64 || type == NPY_ULONGLONG)
    throw IllegalAction("actions must be an array of integer action ids (int64), one per env; got dtype " +
                        nb::cast<std::string>(nb::str(nb::handle(reinterpret_cast<PyObject *>(PyArray_DESCR(arr))))));
  if (PyArray_NDIM(arr) != 1 || PyArray_DIM(arr, 0) != num_envs) {
    std::string shape;
    for (int d = 0; d < PyArray_NDIM(arr); ++d) shape += std::to_string(PyArray_DIM(arr, d)) + ",";
    throw IllegalAction("actions must have shape (" + std::to_string(num_envs) + ",), one per env; got shape (" +
                        shape + ")");
  }
  PyObject *ints = PyArray_FROMANY(any, NPY_INT64, 1, 1, NPY_ARRAY_CARRAY_RO);
  if (!ints) throw nb::python_error();
  return nb::steal(ints);
}

template <class S>
class BatchBinding {
 public:
  BatchBinding(typename Batch<S>::TablesPtr tables, int num_envs, int threads, const std::string &reward,
               double score_scale, int64_t max_steps, bool final_observation, bool final_totals) {
    if (num_envs < 1 || num_envs > (1 << 24)) throw BadInput("num_envs must be 1..16777216");
    if (threads < 1 || threads > 1024) throw BadInput("threads must be 1..1024");
    S blank(tables);
    const npy_intp n = num_envs, p = blank.num_players(), obs = blank.core().layout.observation_size(),
                   acts = blank.core().num_actions;
    BatchOutputs out;
    observation_ = zeros_array<float>({n, obs}, out.observation);
    mask_ = zeros_array<int8_t>({n, acts}, out.mask);
    seat_ = zeros_array<int32_t>({n}, out.seat);
    rewards_ = zeros_array<float>({n, p}, out.rewards);
    terminated_ = zeros_array<bool>({n}, out.terminated);
    truncated_ = zeros_array<bool>({n}, out.truncated);
    final_ranks_ = zeros_array<int32_t>({n, p}, out.final_ranks);
    if (final_observation) final_observation_ = zeros_array<float>({n, p, obs}, out.final_observation);
    if (final_totals) final_totals_ = zeros_array<int32_t>({n, p}, out.final_totals);
    actions_ = zeros_array<int64_t>({n}, actions_data_);
    BatchOptions opt{num_envs, threads, reward_mode_from_name(reward), score_scale, max_steps};
    batch_ = std::make_unique<Batch<S>>(std::move(tables), opt, out);
  }

  void reset(std::optional<uint64_t> seed) {
    Busy busy(busy_);
    nb::gil_scoped_release released;
    batch_->reset(seed);
  }

  void step(nb::handle actions, bool allow_pass) {
    Busy busy(busy_);
    nb::object ints = actions_array(actions, batch_->num_envs());
    const auto *data = static_cast<const int64_t *>(PyArray_DATA(reinterpret_cast<PyArrayObject *>(ints.ptr())));
    nb::gil_scoped_release released;
    batch_->step(data, allow_pass);
  }

  // sample() into the batch's own actions array, returned (overwritten by the next call).
  nb::object sample_actions() {
    Busy busy(busy_);
    {
      nb::gil_scoped_release released;
      batch_->sample(actions_data_);
    }
    return actions_;
  }

  // Env i's state copied into ``target`` (a state of the same configuration).
  void copy_state(int i, S &target) {
    Busy busy(busy_);
    if (!batch_->started()) throw BadInput("the batch has no games before reset()");
    target = batch_->state(i);
  }

  Batch<S> &batch() { return *batch_; }
  nb::object observation_, mask_, seat_, rewards_, terminated_, truncated_, final_ranks_;
  nb::object final_observation_ = nb::none(), final_totals_ = nb::none();
  nb::object actions_;
  int64_t *actions_data_ = nullptr;

 private:
  // One call at a time: a second Python thread is refused while the GIL is released.
  struct Busy {
    explicit Busy(std::atomic<bool> &flag) : flag_(flag) {
      if (flag_.exchange(true)) throw std::runtime_error("this batch is being stepped by another thread");
    }
    ~Busy() { flag_.store(false); }
    Busy(const Busy &) = delete;
    Busy &operator=(const Busy &) = delete;
    std::atomic<bool> &flag_;
  };

  std::unique_ptr<Batch<S>> batch_;  // after the arrays it writes into
  std::atomic<bool> busy_{false};
};

// IllegalActionError with the env, the action and the player as attributes too.
inline void register_batch_errors() {
  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const BatchIllegalAction &e) {
      nb::object cls = nb::module_::import_("forest_envs.core.errors").attr("IllegalActionError");
      nb::object err = cls(e.what());
      err.attr("env_index") = e.env;
      err.attr("action") = e.action;
      err.attr("player") = e.player;
      PyErr_SetObject(cls.ptr(), err.ptr());
    }
  });
}

// Binds Batch<S> as ``<name>`` in module m.
template <class S>
void bind_batch(nb::module_ &m, const char *name = "Batch") {
  using namespace nb::literals;
  using B = BatchBinding<S>;
  register_batch_errors();
  nb::class_<B>(m, name)
      .def(nb::init<typename Batch<S>::TablesPtr, int, int, const std::string &, double, int64_t, bool, bool>(),
           "tables"_a, "num_envs"_a, "threads"_a, "reward"_a, "score_scale"_a, "max_steps"_a,
           "final_observation"_a, "final_totals"_a)
      .def("reset", &B::reset, "seed"_a.none())
      .def("step", &B::step, "actions"_a, "allow_pass"_a = false)
      .def("sample_actions", &B::sample_actions)
      .def("copy_state", &B::copy_state, "env"_a, "target"_a)
      .def_prop_ro("num_envs", [](B &b) { return b.batch().num_envs(); })
      .def_prop_ro("threads", [](B &b) { return b.batch().threads(); })
      .def_prop_ro("num_players", [](B &b) { return b.batch().num_players(); })
      .def_prop_ro("num_actions", [](B &b) { return b.batch().num_actions(); })
      .def_prop_ro("observation_size", [](B &b) { return b.batch().observation_size(); })
      .def_ro("observation", &B::observation_)
      .def_ro("action_mask", &B::mask_)
      .def_ro("seat", &B::seat_)
      .def_ro("rewards", &B::rewards_)
      .def_ro("terminated", &B::terminated_)
      .def_ro("truncated", &B::truncated_)
      .def_ro("final_observation", &B::final_observation_)
      .def_ro("final_ranks", &B::final_ranks_)
      .def_ro("final_totals", &B::final_totals_);
}

}  // namespace forest::native
