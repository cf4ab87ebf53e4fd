// SPDX-License-Identifier: MIT
// Attribute caching (src/mpi/keyval.hpp) on hand-made communicators: the
// keyval table, set/get/delete, and the hooks that MPI_Comm_dup and
// MPI_Comm_free call (copy_comm_attributes, delete_comm_attributes).
#include "mpi/keyval.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <deque>
#include <string>
#include <vector>

namespace shmpi::mpi {
namespace {

// What the recording callbacks saw, in call order.
struct Log {
  std::vector<std::string> calls;
  int fail_with = MPI_SUCCESS;  // returned by the callbacks when set
  int copy_flag = 1;
};

// extra_state of the recording callbacks: a name and the shared log.
struct Tag {
  const char* name;
  Log* log;
};

int record_copy(MPI_Comm /*oldcomm*/, int /*keyval*/, void* extra_state,
                void* value_in, void* value_out, int* flag) {
  auto* tag = static_cast<Tag*>(extra_state);
  tag->log->calls.push_back(std::string("copy ") + tag->name + " " +
                            static_cast<const char*>(value_in));
  *static_cast<void**>(value_out) = value_in;
  *flag = tag->log->copy_flag;
  return tag->log->fail_with;
}

int record_delete(MPI_Comm comm, int /*keyval*/, void* value,
                  void* extra_state) {
  auto* tag = static_cast<Tag*>(extra_state);
  tag->log->calls.push_back(std::string("delete ") + tag->name + " " +
                            static_cast<const char*>(value) +
                            (comm == MPI_COMM_SELF ? " on self" : ""));
  return tag->log->fail_with;
}

// Value strings: attribute values are pointers, these name them in logs.
char kOne[] = "1";
char kTwo[] = "2";
char kThree[] = "3";

class KeyvalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    comm_.handle = MPI_COMM_WORLD;
    copy_.handle = MPI_COMM_SELF;
  }
  void TearDown() override {
    log_.fail_with = MPI_SUCCESS;
    delete_comm_attributes(comm_);
    delete_comm_attributes(copy_);
    for (int keyval : keyvals_) {
      if (is_comm_keyval(keyval)) {
        EXPECT_EQ(free_comm_keyval(keyval), MPI_SUCCESS);
      }
    }
  }

  // A keyval with recording callbacks named `name`.
  int recording_keyval(const char* name) {
    tags_.push_back(Tag{name, &log_});
    return keyval(record_copy, record_delete, &tags_.back());
  }

  int keyval(MPI_Comm_copy_attr_function* copy,
             MPI_Comm_delete_attr_function* del, void* extra_state) {
    int created = MPI_KEYVAL_INVALID;
    EXPECT_EQ(create_comm_keyval(copy, del, extra_state, &created),
              MPI_SUCCESS);
    keyvals_.push_back(created);
    return created;
  }

  Comm comm_;
  Comm copy_;
  Log log_;
  std::vector<int> keyvals_;
  std::deque<Tag> tags_;  // stable addresses: they are extra_state
};

TEST_F(KeyvalTest, CreatedKeyvalsAreDistinctAndNotPredefined) {
  const int a = keyval(nullptr, nullptr, nullptr);
  const int b = keyval(nullptr, nullptr, nullptr);
  EXPECT_NE(a, b);
  for (int k : {a, b}) {
    EXPECT_NE(k, MPI_KEYVAL_INVALID);
    EXPECT_TRUE(is_comm_keyval(k));
    EXPECT_FALSE(is_predefined_comm_keyval(k));
  }
  for (int k : {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL,
                MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE}) {
    EXPECT_TRUE(is_predefined_comm_keyval(k)) << k;
    EXPECT_FALSE(is_comm_keyval(k)) << k;
  }
  EXPECT_FALSE(is_comm_keyval(MPI_KEYVAL_INVALID));
  EXPECT_FALSE(is_comm_keyval(-1));
  EXPECT_FALSE(is_comm_keyval(0x7fffffff));
}

TEST_F(KeyvalTest, FreeInvalidatesTheHandleOnce) {
  const int k = keyval(nullptr, nullptr, nullptr);
  EXPECT_EQ(free_comm_keyval(k), MPI_SUCCESS);
  EXPECT_FALSE(is_comm_keyval(k));
  EXPECT_EQ(free_comm_keyval(k), MPI_ERR_KEYVAL);
  EXPECT_EQ(free_comm_keyval(MPI_TAG_UB), MPI_ERR_KEYVAL);
}

TEST_F(KeyvalTest, RecycledSlotGetsANewHandle) {
  const int old_handle = keyval(nullptr, nullptr, nullptr);
  ASSERT_EQ(free_comm_keyval(old_handle), MPI_SUCCESS);
  const int new_handle = keyval(nullptr, nullptr, nullptr);
  EXPECT_NE(new_handle, old_handle);
  EXPECT_FALSE(is_comm_keyval(old_handle));
  EXPECT_TRUE(is_comm_keyval(new_handle));
}

TEST_F(KeyvalTest, SetGetDelete) {
  const int k = recording_keyval("k");
  void* value = nullptr;
  EXPECT_FALSE(get_comm_attr(comm_, k, &value));
  ASSERT_EQ(set_comm_attr(comm_, k, kOne), MPI_SUCCESS);
  ASSERT_TRUE(get_comm_attr(comm_, k, &value));
  EXPECT_EQ(value, kOne);
  EXPECT_FALSE(get_comm_attr(copy_, k, &value)) << "cached per communicator";
  ASSERT_EQ(delete_comm_attr(comm_, k), MPI_SUCCESS);
  EXPECT_FALSE(get_comm_attr(comm_, k, &value));
  EXPECT_EQ(log_.calls, std::vector<std::string>{"delete k 1"});
  EXPECT_EQ(delete_comm_attr(comm_, k), MPI_SUCCESS) << "absent: no error";
  EXPECT_EQ(log_.calls.size(), 1u);
}

// "As if MPI_COMM_DELETE_ATTR was first called": the old value's delete
// callback runs, and the attribute counts as set last.
TEST_F(KeyvalTest, SetOverExistingValueDeletesTheOldOneAndMovesLast) {
  const int a = recording_keyval("a");
  const int b = recording_keyval("b");
  ASSERT_EQ(set_comm_attr(comm_, a, kOne), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(comm_, b, kTwo), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(comm_, a, kThree), MPI_SUCCESS);
  EXPECT_EQ(log_.calls, std::vector<std::string>{"delete a 1"});
  ASSERT_EQ(comm_.attributes.size(), 2u);
  EXPECT_EQ(comm_.attributes[0].keyval, b);
  EXPECT_EQ(comm_.attributes[1].keyval, a);
  EXPECT_EQ(comm_.attributes[1].value, kThree);
}

TEST_F(KeyvalTest, FailingDeleteCallbackKeepsTheAttribute) {
  const int k = recording_keyval("k");
  ASSERT_EQ(set_comm_attr(comm_, k, kOne), MPI_SUCCESS);
  log_.fail_with = MPI_ERR_OTHER;
  EXPECT_EQ(set_comm_attr(comm_, k, kTwo), MPI_ERR_OTHER);
  EXPECT_EQ(delete_comm_attr(comm_, k), MPI_ERR_OTHER);
  void* value = nullptr;
  ASSERT_TRUE(get_comm_attr(comm_, k, &value));
  EXPECT_EQ(value, kOne);
}

TEST_F(KeyvalTest, CopyRunsCopyCallbacksInSetOrder) {
  const int b = recording_keyval("b");
  const int a = recording_keyval("a");
  const int dup = keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, nullptr);
  const int null = keyval(MPI_COMM_NULL_COPY_FN, nullptr, nullptr);
  const int no_callbacks = keyval(nullptr, nullptr, nullptr);
  ASSERT_EQ(set_comm_attr(comm_, a, kOne), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(comm_, dup, kTwo), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(comm_, b, kThree), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(comm_, null, kOne), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(comm_, no_callbacks, kOne), MPI_SUCCESS);

  ASSERT_EQ(copy_comm_attributes(comm_, copy_), MPI_SUCCESS);
  EXPECT_EQ(log_.calls, (std::vector<std::string>{"copy a 1", "copy b 3"}));
  ASSERT_EQ(copy_.attributes.size(), 3u);
  EXPECT_EQ(copy_.attributes[0].keyval, a);
  EXPECT_EQ(copy_.attributes[1].keyval, dup);
  EXPECT_EQ(copy_.attributes[1].value, kTwo);
  EXPECT_EQ(copy_.attributes[2].keyval, b);
  EXPECT_EQ(comm_.attributes.size(), 5u) << "the old communicator keeps all";
}

TEST_F(KeyvalTest, CopyWithFlagZeroAttachesNothing) {
  const int k = recording_keyval("k");
  ASSERT_EQ(set_comm_attr(comm_, k, kOne), MPI_SUCCESS);
  log_.copy_flag = 0;
  ASSERT_EQ(copy_comm_attributes(comm_, copy_), MPI_SUCCESS);
  EXPECT_TRUE(copy_.attributes.empty());
}

// The failing callback's code comes back; the copies already made are
// deleted again (with their delete callbacks) so the new communicator can
// be thrown away.
TEST_F(KeyvalTest, FailingCopyCallbackUndoesTheCopies) {
  tags_.push_back(Tag{"dup", &log_});
  const int first = keyval(MPI_COMM_DUP_FN, record_delete, &tags_.back());
  Log failing;
  failing.fail_with = 4242;
  Tag bad{"bad", &failing};
  const int second = keyval(record_copy, record_delete, &bad);
  ASSERT_EQ(set_comm_attr(comm_, first, kOne), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(comm_, second, kTwo), MPI_SUCCESS);
  EXPECT_EQ(copy_comm_attributes(comm_, copy_), 4242);
  EXPECT_TRUE(copy_.attributes.empty());
  EXPECT_EQ(log_.calls, std::vector<std::string>{"delete dup 1 on self"});
  failing.fail_with = MPI_SUCCESS;
  EXPECT_EQ(delete_comm_attributes(comm_), MPI_SUCCESS);
}

TEST_F(KeyvalTest, DeleteAllRunsNewestFirstAndReportsTheFirstError) {
  const int a = recording_keyval("a");
  const int b = recording_keyval("b");
  const int c = recording_keyval("c");
  ASSERT_EQ(set_comm_attr(copy_, b, kOne), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(copy_, a, kTwo), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(copy_, c, kThree), MPI_SUCCESS);
  log_.fail_with = MPI_ERR_OTHER;
  EXPECT_EQ(delete_comm_attributes(copy_), MPI_ERR_OTHER);
  EXPECT_EQ(log_.calls, (std::vector<std::string>{"delete c 3 on self",
                                                  "delete a 2 on self",
                                                  "delete b 1 on self"}));
  EXPECT_TRUE(copy_.attributes.empty()) << "all go, even after a failure";
  EXPECT_EQ(delete_comm_attributes(copy_), MPI_SUCCESS);
}

// MPI 4.0 section 7.7.2: a keyval freed while attributes use it lives on
// until they are gone, and their callbacks still run.
TEST_F(KeyvalTest, FreedKeyvalLivesWhileAttributesUseIt) {
  const int k = recording_keyval("k");
  ASSERT_EQ(set_comm_attr(comm_, k, kOne), MPI_SUCCESS);
  ASSERT_EQ(free_comm_keyval(k), MPI_SUCCESS);
  EXPECT_FALSE(is_comm_keyval(k));
  ASSERT_EQ(copy_comm_attributes(comm_, copy_), MPI_SUCCESS);
  ASSERT_EQ(copy_.attributes.size(), 1u);
  EXPECT_EQ(delete_comm_attributes(comm_), MPI_SUCCESS);
  // A keyval created now must not reuse k's slot: copy_ still holds k.
  const int other = keyval(nullptr, nullptr, nullptr);
  EXPECT_NE(other, k);
  EXPECT_EQ(delete_comm_attributes(copy_), MPI_SUCCESS);
  EXPECT_EQ(log_.calls, (std::vector<std::string>{"copy k 1", "delete k 1",
                                                  "delete k 1 on self"}));
  EXPECT_FALSE(is_comm_keyval(k));
}

// Callbacks may call attribute functions on the same communicator.
Comm* g_comm = nullptr;
int g_extra_keyval = MPI_KEYVAL_INVALID;

int delete_adding_another(MPI_Comm /*comm*/, int /*keyval*/, void* /*value*/,
                          void* /*extra_state*/) {
  if (g_extra_keyval != MPI_KEYVAL_INVALID) {
    const int extra = g_extra_keyval;
    g_extra_keyval = MPI_KEYVAL_INVALID;
    return set_comm_attr(*g_comm, extra, kThree);
  }
  return MPI_SUCCESS;
}

TEST_F(KeyvalTest, DeleteCallbackMayChangeTheList) {
  const int first = keyval(nullptr, delete_adding_another, nullptr);
  const int extra = recording_keyval("extra");
  g_comm = &comm_;
  g_extra_keyval = extra;
  ASSERT_EQ(set_comm_attr(comm_, first, kOne), MPI_SUCCESS);
  EXPECT_EQ(delete_comm_attributes(comm_), MPI_SUCCESS);
  EXPECT_TRUE(comm_.attributes.empty());
  EXPECT_EQ(log_.calls, std::vector<std::string>{"delete extra 3"});
}

int copy_deleting_other(MPI_Comm /*oldcomm*/, int /*keyval*/, void* extra_state,
                        void* value_in, void* value_out, int* flag) {
  delete_comm_attr(*g_comm, *static_cast<int*>(extra_state));
  *static_cast<void**>(value_out) = value_in;
  *flag = 1;
  return MPI_SUCCESS;
}

TEST_F(KeyvalTest, CopyCallbackMayDeleteALaterAttribute) {
  int victim = recording_keyval("victim");
  const int first = keyval(copy_deleting_other, nullptr, &victim);
  g_comm = &comm_;
  ASSERT_EQ(set_comm_attr(comm_, first, kOne), MPI_SUCCESS);
  ASSERT_EQ(set_comm_attr(comm_, victim, kTwo), MPI_SUCCESS);
  ASSERT_EQ(copy_comm_attributes(comm_, copy_), MPI_SUCCESS);
  ASSERT_EQ(copy_.attributes.size(), 1u) << "the deleted one is not copied";
  EXPECT_EQ(copy_.attributes[0].keyval, first);
  EXPECT_EQ(log_.calls, std::vector<std::string>{"delete victim 2"});
}

// Datatype keyvals: their own kind, callbacks given the datatype handle.
int type_copy(MPI_Datatype oldtype, int /*keyval*/, void* extra_state,
              void* value_in, void* value_out, int* flag) {
  auto* seen = static_cast<std::vector<MPI_Datatype>*>(extra_state);
  seen->push_back(oldtype);
  *static_cast<void**>(value_out) = value_in;
  *flag = 1;
  return MPI_SUCCESS;
}

int type_delete(MPI_Datatype type, int /*keyval*/, void* /*value*/,
                void* extra_state) {
  static_cast<std::vector<MPI_Datatype>*>(extra_state)->push_back(type);
  return MPI_SUCCESS;
}

TEST(TypeKeyval, KindsDoNotMixAndCallbacksGetTheType) {
  std::vector<MPI_Datatype> seen;
  int keyval = MPI_KEYVAL_INVALID;
  ASSERT_EQ(create_type_keyval(type_copy, type_delete, &seen, &keyval),
            MPI_SUCCESS);
  EXPECT_TRUE(is_keyval(keyval, AttrKind::kType));
  EXPECT_FALSE(is_comm_keyval(keyval));
  EXPECT_FALSE(is_live_comm_keyval(keyval));
  EXPECT_EQ(free_comm_keyval(keyval), MPI_ERR_KEYVAL);

  std::vector<Attribute> old_list;
  std::vector<Attribute> new_list;
  const AttrHost old_host{MPI_INT, old_list};
  const AttrHost new_host{MPI_DOUBLE, new_list};
  ASSERT_EQ(set_attr(old_host, keyval, kOne), MPI_SUCCESS);
  ASSERT_EQ(copy_attributes(old_host, new_host), MPI_SUCCESS);
  void* value = nullptr;
  ASSERT_TRUE(get_attr(new_list, keyval, &value));
  EXPECT_EQ(value, kOne);
  EXPECT_EQ(delete_attributes(new_host), MPI_SUCCESS);
  EXPECT_EQ(delete_attr(old_host, keyval), MPI_SUCCESS);
  EXPECT_EQ(seen, (std::vector<MPI_Datatype>{MPI_INT, MPI_DOUBLE, MPI_INT}));

  // A freed keyval stays live while an attribute uses it.
  ASSERT_EQ(set_attr(old_host, keyval, kTwo), MPI_SUCCESS);
  ASSERT_EQ(free_type_keyval(keyval), MPI_SUCCESS);
  EXPECT_FALSE(is_keyval(keyval, AttrKind::kType));
  EXPECT_TRUE(is_live_keyval(keyval, AttrKind::kType));
  EXPECT_EQ(delete_attributes(old_host), MPI_SUCCESS);
  EXPECT_FALSE(is_live_keyval(keyval, AttrKind::kType));
}

}  // namespace
}  // namespace shmpi::mpi
