// The thin layer between Python and a game's native state (nanobind): numpy arrays in and
// out, the layout and decision kinds read from their Python objects, errors turned into the
// Python engine's, and the methods every native state shares (bind_state_core, called by
// bind_game in game_binding.hpp for a game's State class). Everything that comes from
// Python is checked here or by the state's check_fields before the rules read it.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

// numpy's C API makes the arrays handed to Python (a tenth of what a generic ndarray export
// costs, on the hot path of every step); only this header, included by each module.cpp
// alone, uses it.
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "state_core.hpp"

namespace forest::native {

namespace nb = nanobind;

// numpy's C API, imported once by each module's init (NB_MODULE body).
inline void import_numpy() {
  if (_import_array() < 0) throw nb::python_error();
}

template <class T>
constexpr int npy_type();
template <>
constexpr int npy_type<float>() { return NPY_FLOAT32; }
template <>
constexpr int npy_type<int8_t>() { return NPY_INT8; }
template <>
constexpr int npy_type<int16_t>() { return NPY_INT16; }

// A new numpy array of n items the caller fills through ``data``. ``spare`` more items are
// allocated behind it (not shown), for a writer that may write one past the end.
template <class T>
nb::object new_array(size_t n, T *&data, size_t spare = 0) {
  npy_intp dims[1] = {static_cast<npy_intp>(n + spare)};
  PyObject *arr = PyArray_SimpleNew(1, dims, npy_type<T>());
  if (!arr) throw nb::python_error();
  if (spare) PyArray_DIMS(reinterpret_cast<PyArrayObject *>(arr))[0] = static_cast<npy_intp>(n);
  data = static_cast<T *>(PyArray_DATA(reinterpret_cast<PyArrayObject *>(arr)));
  return nb::steal(arr);
}

// The state's buffer as an int16 numpy array without a copy: the array keeps the buffer
// alive (not the state, so block views cached on the state make no reference cycle).
inline nb::object buffer_view(const StateCore &s) {
  auto *keep = new std::shared_ptr<std::vector<int16_t>>(s.buffer());
  nb::capsule owner(keep, [](void *p) noexcept { delete static_cast<std::shared_ptr<std::vector<int16_t>> *>(p); });
  npy_intp dims[1] = {static_cast<npy_intp>((*keep)->size())};
  PyObject *arr = PyArray_SimpleNewFromData(1, dims, NPY_INT16, (*keep)->data());
  if (!arr) throw nb::python_error();
  if (PyArray_SetBaseObject(reinterpret_cast<PyArrayObject *>(arr), owner.release().ptr()) < 0) {
    Py_DECREF(arr);
    throw nb::python_error();
  }
  return nb::steal(arr);
}

// Layout.native_tables() (core/layout.py) -> the native layout, checked.
inline Layout layout_from_python(const nb::dict &d) {
  LayoutTables t;
  t.size = nb::cast<int32_t>(d["size"]);
  t.num_players = nb::cast<int32_t>(d["num_players"]);
  t.blocks = nb::cast<std::map<std::string, std::vector<int32_t>>>(d["blocks"]);
  t.gather = nb::cast<std::vector<std::vector<int64_t>>>(d["gather"]);
  t.scale = nb::cast<std::vector<float>>(d["scale"]);
  t.observation_size = nb::cast<int32_t>(d["observation_size"]);
  t.unit_scale = nb::cast<bool>(d["unit_scale"]);
  t.has_onehot = nb::cast<bool>(d["has_onehot"]);
  t.numbers = nb::cast<int32_t>(d["numbers"]);
  t.spare = nb::cast<int32_t>(d["spare"]);
  t.onehot_base = nb::cast<std::vector<int64_t>>(d["onehot_base"]);
  t.onehot_at = nb::cast<std::vector<int64_t>>(d["onehot_at"]);
  t.state_low = nb::cast<std::vector<int16_t>>(d["state_low"]);
  t.state_high = nb::cast<std::vector<int16_t>>(d["state_high"]);
  return Layout(std::move(t));
}

// [(name, ints, seats, [int highs])] from the game's DECISIONS.
inline std::vector<DecisionKindSpec> kinds_from_python(const nb::list &kinds) {
  std::vector<DecisionKindSpec> out;
  for (nb::handle k : kinds) {
    auto [name, ints, seats, highs] = nb::cast<std::tuple<std::string, int, int, std::vector<int>>>(k);
    out.push_back({name, ints, seats, highs});
  }
  return out;
}

inline std::shared_ptr<const CoreTables> core_from_python(const nb::dict &layout, std::vector<std::string> action_names,
                                                          const nb::list &kinds) {
  return std::make_shared<const CoreTables>(layout_from_python(layout), std::move(action_names),
                                            kinds_from_python(kinds));
}

// nanobind reports, at exit, every bound object still alive. Libraries that keep Python objects
// for the process's life (pyspiel's game registry holds our OpenSpiel games, and through them
// native states) make that a list of false leaks on every exit; a release build stays quiet, a
// checked build (FOREST_NATIVE_CHECKED: the sanitizer and debug builds the tests run) reports
// them, so a real reference leak still shows there.
inline void set_leak_warnings() {
#ifdef FOREST_NATIVE_CHECKED
  nb::set_leak_warnings(true);
#else
  nb::set_leak_warnings(false);
#endif
}

// The Python engine's IllegalActionError and ValueError for the rules' and the input's errors.
inline void register_errors() {
  nb::register_exception_translator([](const std::exception_ptr &p, void *) {
    try {
      std::rethrow_exception(p);
    } catch (const IllegalAction &e) {
      nb::object cls = nb::module_::import_("forest_envs.core.errors").attr("IllegalActionError");
      PyErr_SetString(cls.ptr(), e.what());
    } catch (const BadInput &e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
}

// An action as the Python engine takes it: a Python or numpy integer, never a bool or a
// float (GameState.coerce_action says it for anything but a plain int).
inline void apply_action(StateCore &s, nb::handle action, void (*apply)(StateCore &, int64_t)) {
  PyObject *a = action.ptr();
  if (PyLong_CheckExact(a)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (!overflow) return apply(s, v);
    if (s.is_terminal()) throw IllegalAction("the game is over; no action can be applied");
    throw IllegalAction("action " + nb::cast<std::string>(nb::repr(action)) + " is out of range 0.." +
                        std::to_string(s.core().num_actions - 1));
  }
  nb::object coerce = nb::module_::import_("forest_envs.core.native_state").attr("coerce_action");
  nb::object v = coerce(action);  // raises IllegalActionError for what is not an action
  return apply_action(s, v, apply);
}

// The methods every native state shares (the engine contract's primitives); S derives from
// EngineState<S>. The Python class NativeState (core/native_state.py) builds the rest of the
// contract on them.
template <class S, class Cls>
void bind_state_core(Cls &cls) {
  cls.def_prop_ro("current_player", &S::current_player)
      .def_prop_ro("is_terminal", &S::is_terminal)
      .def_prop_ro("turn", [](const S &s) { return s.turn; })
      .def_prop_ro("buf", [](const S &s) { return buffer_view(s); })
      .def("legal_action_mask",
           [](S &s) {
             const auto &m = s.legal_mask();
             int8_t *data;
             auto out = new_array<int8_t>(m.size(), data);
             std::copy(m.begin(), m.end(), data);
             return out;
           })
      .def("apply",
           [](S &s, nb::handle action) {
             apply_action(s, action, [](StateCore &st, int64_t a) { static_cast<S &>(st).apply(a); });
           },
           nb::arg("action").none())
      .def("observation",
           [](const S &s, int seat) {
             const auto &L = s.core().layout;
             if (seat < 0 || seat >= s.num_players()) throw BadInput("observation: seat " + std::to_string(seat) + " is not a seat");
             show_derived_blocks(s);
             float *data;
             // the one-hot path may write a spare float past the end: allocated, not shown
             auto out = new_array<float>(static_cast<size_t>(L.observation_size()), data,
                                         static_cast<size_t>(L.tables().spare));
             L.observe(s.buf, seat, data);
             return out;
           })
      .def("global_state",
           [](const S &s) {
             show_derived_blocks(s);
             float *data;
             const size_t n = s.buffer()->size();
             auto out = new_array<float>(n, data);
             for (size_t i = 0; i < n; ++i) data[i] = static_cast<float>(s.buf[i]);
             return out;
           })
      .def("_decisions",
           [](const S &s) {
             nb::list out;
             for (const auto &d : s.decisions) {
               nb::list data;
               for (int i = 0; i < d.len; ++i) data.append(d.data[static_cast<size_t>(i)]);
               out.append(nb::make_tuple(d.kind, d.player, nb::tuple(data)));
             }
             return out;
           })
      .def("_set_decisions",
           [](S &s, const std::vector<std::tuple<int, int, std::vector<int>>> &ds) {
             std::vector<Decision> out;
             for (const auto &[kind, player, data] : ds) {
               if (data.size() > static_cast<size_t>(kMaxDecisionData)) throw BadInput("decisions: too many values");
               if (kind < 0 || kind >= static_cast<int>(s.core().kinds.size())) throw BadInput("decisions: unknown kind");
               Decision d;
               d.kind = static_cast<int16_t>(kind);
               d.player = static_cast<int16_t>(player);
               d.len = static_cast<int16_t>(data.size());
               for (size_t i = 0; i < data.size(); ++i) d.data[i] = static_cast<int16_t>(data[i]);
               out.push_back(d);
             }
             s.decisions = std::move(out);
           })
      .def("_set_turn_field", [](S &s, int turn) { s.turn = turn; })
      .def("_rng_state",
           [](const S &s) {
             const auto &g = s.rng;
             return std::make_tuple(g.state_hi(), g.state_lo(), g.inc_hi(), g.inc_lo(), g.has_uint32(), g.uinteger());
           })
      .def("_set_rng_state",
           [](S &s, uint64_t shi, uint64_t slo, uint64_t ihi, uint64_t ilo, bool has32, uint32_t u) {
             s.rng = Pcg64::from_state(shi, slo, ihi, ilo, has32, u);
           })
      .def("_set_buf",
           [](S &s, const std::vector<int16_t> &values) {
             if (values.size() != s.buffer()->size()) throw BadInput("buf: not the layout's size");
             std::copy(values.begin(), values.end(), s.buf);
           })
      .def("_out_of_range", [](const S &s) { return s.core().layout.out_of_range(s.buf); })
      .def("edited", [](S &s) { s.edited(); });
}

}  // namespace forest::native
