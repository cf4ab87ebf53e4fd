// SPDX-License-Identifier: MIT
// MPI_T_event_*: event types, registration handles, callbacks and the
// element data a callback reads (MPI 4.0 section 15.3.8). Like every MPI_T
// call they return their error codes without invoking an error handler and
// work before MPI_Init and after MPI_Finalize.
#include <mpi.h>

#include <cstring>
#include <new>

#include "mpi/detail/pmpi.hpp"
#include "mpi/info.hpp"
#include "mpi/tool.hpp"
#include "mpi/tool_events.hpp"
#include "mpi/tool_events_registry.hpp"

using namespace shmpi::mpi;

namespace {

bool valid_event_index(int event_index) {
  return event_index >= 0 && event_index < tool::kEventTypeCount;
}

// MPI_INFO_NULL or a live info object.
bool valid_info(MPI_Info info) {
  return info == MPI_INFO_NULL || find_info(info) != nullptr;
}

// The instance the calling thread's callback is handling, into *out: the
// four calls that read an event's data are valid only there.
int handled_instance(MPI_T_event_instance handle,
                     const MPI_T_event_instance_t** out) {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  *out = tool::current_instance(handle);
  return *out != nullptr ? MPI_SUCCESS : MPI_T_ERR_INVALID_HANDLE;
}

// A new empty info object into *out: shmpi takes no hints for events, so
// the hints "used" are none (the *_get_info calls return a new object the
// program frees).
int new_empty_info(MPI_Info* out) {
  Info* created = create_info();
  if (created == nullptr) {
    return MPI_T_ERR_MEMORY;
  }
  *out = to_handle(created);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" int PMPI_T_event_get_num(int* num_events) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (num_events == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *num_events = tool::kEventTypeCount;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_event_get_num);

extern "C" int PMPI_T_event_get_info(int event_index, char* name, int* name_len,
                                     int* verbosity,
                                     MPI_Datatype array_of_datatypes[],
                                     MPI_Aint array_of_displacements[],
                                     int* num_elements, MPI_T_enum* enumtype,
                                     MPI_Info* info, char* desc, int* desc_len,
                                     int* bind) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!valid_event_index(event_index)) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  const tool::EventTypeInfo& type = tool::event_type(event_index);
  // NULL output arguments are ignored (MPI 4.0 section 15.3.8).
  if (info != nullptr) {
    if (const int rc = new_empty_info(info); rc != MPI_SUCCESS) {
      return rc;
    }
  }
  tool::return_string(type.name, name, name_len);
  tool::return_string(type.description, desc, desc_len);
  if (verbosity != nullptr) {
    *verbosity = type.verbosity;
  }
  const int count = static_cast<int>(type.elements.size());
  if (num_elements != nullptr) {
    // In: the length of the arrays; out: the number of elements.
    const int room = *num_elements < count ? *num_elements : count;
    for (int i = 0; i < room; ++i) {
      const tool::EventElement& element =
          type.elements[static_cast<std::size_t>(i)];
      if (array_of_datatypes != nullptr) {
        array_of_datatypes[i] = tool::element_datatype(element.type);
      }
      if (array_of_displacements != nullptr) {
        array_of_displacements[i] = static_cast<MPI_Aint>(element.displacement);
      }
    }
    *num_elements = count;
  }
  if (enumtype != nullptr) {
    *enumtype = MPI_T_ENUM_NULL;
  }
  if (bind != nullptr) {
    *bind = MPI_T_BIND_NO_OBJECT;
  }
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_event_get_info);

extern "C" int PMPI_T_event_get_index(const char* name,
                                      int* event_index) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (name == nullptr || event_index == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const int index = tool::find_event_type(name);
  if (index < 0) {
    return MPI_T_ERR_INVALID_NAME;
  }
  *event_index = index;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_event_get_index);

extern "C" int PMPI_T_event_handle_alloc(
    int event_index, void* obj_handle, MPI_Info info,
    MPI_T_event_registration* event_registration) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (!valid_event_index(event_index)) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (event_registration == nullptr || !valid_info(info)) {
    return MPI_T_ERR_INVALID;
  }
  // Every event type binds to no object (MPI_T_BIND_NO_OBJECT), so
  // obj_handle is ignored, as the standard says for that binding.
  static_cast<void>(obj_handle);
  return tool::allocate_registration(event_index, event_registration);
}
SHMPI_PMPI_ALIAS(MPI_T_event_handle_alloc);

extern "C" int PMPI_T_event_handle_set_info(
    MPI_T_event_registration event_registration, MPI_Info info) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (const int rc = tool::check_registration(event_registration, -1);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (!valid_info(info)) {
    return MPI_T_ERR_INVALID;
  }
  return MPI_SUCCESS;  // no hint changes how shmpi raises events
}
SHMPI_PMPI_ALIAS(MPI_T_event_handle_set_info);

extern "C" int PMPI_T_event_handle_get_info(
    MPI_T_event_registration event_registration, MPI_Info* info_used) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (const int rc = tool::check_registration(event_registration, -1);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (info_used == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  return new_empty_info(info_used);
}
SHMPI_PMPI_ALIAS(MPI_T_event_handle_get_info);

extern "C" int PMPI_T_event_handle_free(
    MPI_T_event_registration event_registration, void* user_data,
    MPI_T_event_free_cb_function free_cb_function) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  return tool::free_registration(event_registration, user_data,
                                 free_cb_function);
}
SHMPI_PMPI_ALIAS(MPI_T_event_handle_free);

extern "C" int PMPI_T_event_register_callback(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info info, void* user_data,
    MPI_T_event_cb_function event_cb_function) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (const int rc = tool::check_registration(event_registration, -1);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const int rank = tool::safety_rank(cb_safety);
  if (rank < 0 || event_cb_function == nullptr || !valid_info(info)) {
    return MPI_T_ERR_INVALID;
  }
  // Replaces the callback registered for this level, if any.
  return tool::set_callback(event_registration, rank, event_cb_function,
                            user_data);
}
SHMPI_PMPI_ALIAS(MPI_T_event_register_callback);

extern "C" int PMPI_T_event_callback_set_info(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info info) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (const int rc = tool::check_registration(event_registration, -1);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const int rank = tool::safety_rank(cb_safety);
  if (rank < 0 || !valid_info(info)) {
    return MPI_T_ERR_INVALID;
  }
  // No callback at this level: nothing to give hints to.
  return tool::check_registration(event_registration, rank);
}
SHMPI_PMPI_ALIAS(MPI_T_event_callback_set_info);

extern "C" int PMPI_T_event_callback_get_info(
    MPI_T_event_registration event_registration, MPI_T_cb_safety cb_safety,
    MPI_Info* info_used) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  if (const int rc = tool::check_registration(event_registration, -1);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const int rank = tool::safety_rank(cb_safety);
  if (rank < 0 || info_used == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  if (const int rc = tool::check_registration(event_registration, rank);
      rc != MPI_SUCCESS) {
    return rc;
  }
  return new_empty_info(info_used);
}
SHMPI_PMPI_ALIAS(MPI_T_event_callback_get_info);

extern "C" int PMPI_T_event_set_dropped_handler(
    MPI_T_event_registration event_registration,
    MPI_T_event_dropped_cb_function dropped_cb_function) noexcept {
  if (const int rc = tool::check_initialized(); rc != MPI_SUCCESS) {
    return rc;
  }
  // NULL removes the handler.
  return tool::set_dropped_handler(event_registration, dropped_cb_function);
}
SHMPI_PMPI_ALIAS(MPI_T_event_set_dropped_handler);

// ---- inside a callback: the event instance's data

extern "C" int PMPI_T_event_read(MPI_T_event_instance event_instance,
                                 int element_index, void* buffer) noexcept {
  const MPI_T_event_instance_t* instance = nullptr;
  if (const int rc = handled_instance(event_instance, &instance);
      rc != MPI_SUCCESS) {
    return rc;
  }
  const tool::EventTypeInfo& type = tool::event_type(instance->event_index);
  if (element_index < 0 ||
      element_index >= static_cast<int>(type.elements.size())) {
    return MPI_T_ERR_INVALID_INDEX;
  }
  if (buffer == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  const tool::EventElement& element =
      type.elements[static_cast<std::size_t>(element_index)];
  std::memcpy(
      buffer,
      static_cast<const std::byte*>(instance->elements) + element.displacement,
      tool::element_size(element.type));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_event_read);

extern "C" int PMPI_T_event_copy(MPI_T_event_instance event_instance,
                                 void* buffer) noexcept {
  const MPI_T_event_instance_t* instance = nullptr;
  if (const int rc = handled_instance(event_instance, &instance);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (buffer == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  // The elements at the displacements MPI_T_event_get_info reports.
  std::memcpy(buffer, instance->elements,
              tool::element_buffer_extent(
                  tool::event_type(instance->event_index).elements));
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_event_copy);

extern "C" int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance,
                                          MPI_Count* event_timestamp) noexcept {
  const MPI_T_event_instance_t* instance = nullptr;
  if (const int rc = handled_instance(event_instance, &instance);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (event_timestamp == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *event_timestamp = instance->timestamp;
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_event_get_timestamp);

extern "C" int PMPI_T_event_get_source(MPI_T_event_instance event_instance,
                                       int* source_index) noexcept {
  const MPI_T_event_instance_t* instance = nullptr;
  if (const int rc = handled_instance(event_instance, &instance);
      rc != MPI_SUCCESS) {
    return rc;
  }
  if (source_index == nullptr) {
    return MPI_T_ERR_INVALID;
  }
  *source_index = 0;  // the one source stamps every event
  return MPI_SUCCESS;
}
SHMPI_PMPI_ALIAS(MPI_T_event_get_source);
