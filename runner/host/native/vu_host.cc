// The shared-isolate VU host: VUs are OS threads, each with its own V8 context, and a group of them
// shares one V8 isolate (its heap, its compiled code). A VU blocked in a call to the main thread, or in
// a sleep, leaves the isolate (v8::Unlocker) so the group's other VUs run meanwhile; isolated-vm holds
// an isolate while a call from it blocks, so there an isolate holds one VU. What crosses between the
// main isolate and a VU's is written by V8's ValueSerializer; a SharedArrayBuffer crosses as its
// backing store, shared. See ../../vu/README.md ("Three hosts") and ../shared-isolate-host.ts.
//
// Main thread (shared-isolate-host.ts):
//   group({ heapMb, code, filename }) -> group  an isolate for VUs to share, made by its first VU
//   start(group, { data, receive }) -> vu
//       a VU thread: its context gets the global `$loadlab` (data, with `native` added), runs `code`,
//       then runs the function `$loadlabVu.dispatch` for each value dispatch() hands it;
//       receive(kind, value, needsAnswer) hears the VU's post()s and call()s, and ('exit', reason)
//       once it runs no more of its JavaScript (reason: '' closed, 'terminated', 'oom', or an error's
//       text); its thread may still be leaving the isolate then
//   answer(vu, ok, value), dispatch(vu, value), wake(vu), close(vu), terminate(vu), closeGroup(group)
//   codeCache(vu)  V8's code cache of the group's code, as a ('codeCache', ArrayBuffer) message
//   group() takes `cache`, an ArrayBuffer of such a cache, to compile the code from
// VU's context (`$loadlab.native`):
//   call(kind, value) -> [ok, answer]          blocks this VU (not its isolate) until answer()
//   post(kind, value)                          no answer
//   hrtime() -> [seconds, nanoseconds]         libuv's clock, as process.hrtime()
//   wait(int32Array, index, expected, ms)      Atomics.wait's results, woken by wake() (Atomics.notify
//                                              cannot reach a wait that left the isolate)
#include <node.h>
#include <uv.h>
#include <v8.h>

#ifdef __linux__
#include <pthread.h>
#endif

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
using v8::Context;
using v8::External;
using v8::FunctionCallbackInfo;
using v8::HandleScope;
using v8::Isolate;
using v8::Local;
using v8::Locker;
using v8::Maybe;
using v8::MaybeLocal;
using v8::Object;
using v8::String;
using v8::Value;

// ---- values between isolates ----

// A value as V8's ValueSerializer wrote it, with the backing stores of the SharedArrayBuffers in it.
struct Bytes {
  uint8_t* data = nullptr;
  size_t size = 0;
  std::vector<std::shared_ptr<v8::BackingStore>> shared;
  ~Bytes() { free(data); }
};

class Writer : public v8::ValueSerializer::Delegate {
 public:
  Writer(Isolate* isolate, Bytes* out) : isolate_(isolate), out_(out) {}
  void ThrowDataCloneError(Local<String> message) override {
    isolate_->ThrowException(v8::Exception::TypeError(message));
  }
  Maybe<uint32_t> GetSharedArrayBufferId(Isolate*, Local<v8::SharedArrayBuffer> buffer) override {
    std::shared_ptr<v8::BackingStore> store = buffer->GetBackingStore();
    for (size_t i = 0; i < out_->shared.size(); i++)
      if (out_->shared[i] == store) return v8::Just(static_cast<uint32_t>(i));
    out_->shared.push_back(std::move(store));
    return v8::Just(static_cast<uint32_t>(out_->shared.size() - 1));
  }

 private:
  Isolate* isolate_;
  Bytes* out_;
};

class Reader : public v8::ValueDeserializer::Delegate {
 public:
  explicit Reader(const Bytes* bytes) : bytes_(bytes) {}
  MaybeLocal<v8::SharedArrayBuffer> GetSharedArrayBufferFromId(Isolate* isolate, uint32_t id) override {
    if (id >= bytes_->shared.size()) return {};
    return v8::SharedArrayBuffer::New(isolate, bytes_->shared[id]);
  }

 private:
  const Bytes* bytes_;
};

// Null with an exception pending in `isolate` when the value cannot be cloned.
std::unique_ptr<Bytes> Serialize(Isolate* isolate, Local<Context> context, Local<Value> value) {
  auto out = std::make_unique<Bytes>();
  Writer delegate(isolate, out.get());
  v8::ValueSerializer serializer(isolate, &delegate);
  serializer.WriteHeader();
  if (serializer.WriteValue(context, value).IsNothing()) return nullptr;
  std::pair<uint8_t*, size_t> released = serializer.Release();
  out->data = released.first;
  out->size = released.second;
  return out;
}

MaybeLocal<Value> Deserialize(Isolate* isolate, Local<Context> context, const Bytes& bytes) {
  Reader delegate(&bytes);
  v8::ValueDeserializer deserializer(isolate, bytes.data, bytes.size, &delegate);
  if (deserializer.ReadHeader(context).IsNothing()) return {};
  return deserializer.ReadValue(context);
}

Local<String> Text(Isolate* isolate, const std::string& text) {
  return String::NewFromUtf8(isolate, text.data(), v8::NewStringType::kNormal, static_cast<int>(text.size()))
      .ToLocalChecked();
}

// ---- an isolate's foreground tasks ----

// V8 posts tasks (GC's among them) for an isolate; they run on whichever VU thread enters it next.
// A non-nestable task waits for a VU with no JavaScript on its stack (between two dispatches): V8 may
// not run it inside a call from JavaScript.
class TaskQueue : public v8::TaskRunner {
 public:
#if V8_MAJOR_VERSION >= 12  // Node 22 and later: V8 asks embedders to override the *Impl methods
  void PostTaskImpl(std::unique_ptr<v8::Task> task, const v8::SourceLocation&) override {
    Queue(std::move(task), 0, true);
  }
  void PostNonNestableTaskImpl(std::unique_ptr<v8::Task> task, const v8::SourceLocation&) override {
    Queue(std::move(task), 0, false);
  }
  void PostDelayedTaskImpl(std::unique_ptr<v8::Task> task, double seconds, const v8::SourceLocation&) override {
    Queue(std::move(task), seconds, true);
  }
  void PostNonNestableDelayedTaskImpl(std::unique_ptr<v8::Task> task, double seconds,
                                      const v8::SourceLocation&) override {
    Queue(std::move(task), seconds, false);
  }
  void PostIdleTaskImpl(std::unique_ptr<v8::IdleTask>, const v8::SourceLocation&) override {}
#else
  void PostTask(std::unique_ptr<v8::Task> task) override { Queue(std::move(task), 0, true); }
  void PostNonNestableTask(std::unique_ptr<v8::Task> task) override { Queue(std::move(task), 0, false); }
  void PostDelayedTask(std::unique_ptr<v8::Task> task, double seconds) override {
    Queue(std::move(task), seconds, true);
  }
  void PostNonNestableDelayedTask(std::unique_ptr<v8::Task> task, double seconds) override {
    Queue(std::move(task), seconds, false);
  }
  void PostIdleTask(std::unique_ptr<v8::IdleTask>) override {}
#endif
  bool IdleTasksEnabled() override { return false; }
  bool NonNestableTasksEnabled() const override { return true; }
  bool NonNestableDelayedTasksEnabled() const override { return true; }

  void Queue(std::unique_ptr<v8::Task> task, double seconds, bool nestable) {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.push_back(
        {Clock::now() + std::chrono::microseconds(static_cast<long>(seconds * 1e6)), nestable, std::move(task)});
  }

  // Runs the tasks that are due (`nested`: JavaScript is on the stack, so only the nestable ones); the
  // caller holds the isolate.
  void RunDue(bool nested) {
    std::vector<std::unique_ptr<v8::Task>> due;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (tasks_.empty()) return;
      const auto now = Clock::now();
      for (auto it = tasks_.begin(); it != tasks_.end();) {
        if (it->at <= now && (it->nestable || !nested)) {
          due.push_back(std::move(it->task));
          it = tasks_.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (auto& task : due) task->Run();
  }

  void Clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.clear();
  }

 private:
  struct Pending {
    Clock::time_point at;
    bool nestable;
    std::unique_ptr<v8::Task> task;
  };
  std::mutex mutex_;
  std::deque<Pending> tasks_;
};

class PlatformDelegate : public node::IsolatePlatformDelegate {
 public:
  std::shared_ptr<v8::TaskRunner> GetForegroundTaskRunner() override { return tasks; }
  bool IdleTasksEnabled() override { return false; }
  std::shared_ptr<TaskQueue> tasks = std::make_shared<TaskQueue>();
};

// ---- the process's state ----

struct Vu;

// One isolate shared by a group of VUs. Made by the first VU to start, disposed by the last to end
// once the group is closed (no VU will join it).
struct Group {
  std::mutex mutex;
  Isolate* isolate = nullptr;
  size_t heapBytes = 0;
  std::unique_ptr<v8::ArrayBuffer::Allocator> allocator;
  PlatformDelegate delegate;
  // The VU whose thread holds the isolate, and how many VU threads wait to enter it.
  std::atomic<Vu*> current{nullptr};
  std::atomic<int> waiting{0};
  std::atomic<long> entries{0};
  // Set by the watchdog when the isolate was held a whole tick while VUs waited; `entriesSeen` is its
  // count of entries at its last tick.
  std::atomic<bool> yieldAsked{false};
  long entriesSeen = 0;
  // Under `mutex`: VUs started and ended, and whether more may join.
  int started = 0;
  int ended = 0;
  bool closed = false;
  bool disposed = false;
  // The VUs' code, compiled once in the isolate, from V8's code cache of it when one was given (the
  // main thread's buffer, held, not copied).
  std::string code;
  std::string filename;
  std::shared_ptr<v8::BackingStore> cache;
  v8::Global<v8::UnboundScript> compiled;
};

struct Message {
  Vu* vu;
  std::string kind;
  std::unique_ptr<Bytes> value;  // null for an exit
  bool needsAnswer = false;
  std::string exitReason;
};

struct Host {
  node::MultiIsolatePlatform* platform = nullptr;
  Isolate* isolate = nullptr;
  v8::Global<Context> context;
  v8::Global<Object> resource;  // the async resource the VUs' messages are delivered under
  uv_async_t async;
  std::mutex queueMutex;
  std::deque<Message> queue;
  int liveVus = 0;  // main thread only: the async handle keeps the loop alive while any VU lives
  std::mutex groupsMutex;
  std::vector<Group*> groups;
  std::thread watchdog;
  std::atomic<bool> exiting{false};
  // VU threads holding an isolate or waiting for its lock: the exit waits for none to be left.
  std::atomic<int> inside{0};
};

Host* host = nullptr;
// Node's platform knows isolates by address: one is made and registered, or disposed and unregistered,
// under this lock.
std::mutex platformMutex;

// Kept once its thread ended (a few hundred bytes): the watchdog may still read one it saw running.
struct Vu {
  Group* group = nullptr;
  std::unique_ptr<Bytes> data;
  v8::Global<v8::Function> receive;  // main isolate
  // Between the two threads, under `mutex`.
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<std::unique_ptr<Bytes>> tasks;
  std::unique_ptr<Bytes> answer;
  bool answerOk = false;
  bool answered = false;
  uint64_t wakes = 0;
  bool closed = false;
  std::atomic<bool> terminating{false};
  std::atomic<bool> outOfMemory{false};
  // Set while the VU's thread runs its JavaScript (not while V8 makes its context, say): only then may
  // an interrupt end it or leave the isolate for a while.
  std::atomic<bool> inScript{false};
  // Set once the main thread was told the VU ended (it may be told before the thread is done with the
  // isolate: a VU that must end waits for no lock to say so).
  std::atomic<bool> exitReported{false};
  // Set once its thread first held the isolate.
  std::atomic<bool> entered{false};
  // Under `mutex`: the main thread asked for V8's code cache (codeCache()).
  bool cacheWanted = false;
  // Its thread's: the VU's promise jobs (its context's own queue), and the promises it left rejected
  // with no handler since its last report, with their reasons.
  v8::MicrotaskQueue* microtasks = nullptr;
  std::vector<std::pair<v8::Global<v8::Promise>, v8::Global<Value>>> rejected;
};

// Marks a stretch of the VU's JavaScript.
class InScript {
 public:
  explicit InScript(Vu* vu) : vu_(vu) { vu->inScript = true; }
  ~InScript() { vu_->inScript = false; }

 private:
  Vu* vu_;
};

// ---- entering and leaving an isolate ----

// The process is exiting: a VU thread that would enter its isolate (or has just left it) stops for
// good instead, since V8's platform is about to go.
void ParkIfExiting() {
  if (!host->exiting) return;
  std::mutex mutex;
  std::unique_lock<std::mutex> lock(mutex);
  std::condition_variable never;
  for (;;) never.wait(lock);
}

// Before a VU thread takes its isolate's lock: it counts as inside the isolate from now on, unless the
// exit began (seen after counting, so that the exit, which sets its flag and then reads the count,
// cannot miss it).
void WillWait(Group* group) {
  host->inside++;
  if (host->exiting) {
    host->inside--;
    ParkIfExiting();
  }
  group->waiting++;
}

// The isolate was just entered by `vu`'s thread: it runs V8's due tasks (`runTasks`), and ends at once
// if told to.
void Entered(Group* group, Vu* vu, bool runTasks = true) {
  group->waiting--;
  group->entries++;
  group->current = vu;
  vu->entered = true;
  if (vu->terminating || host->exiting) {
    group->isolate->TerminateExecution();
    return;
  }
  if (runTasks) group->delegate.tasks->RunDue(true);
}

void ReportExit(Vu* vu, const std::string& reason);

// Leaves the isolate to the group's other VUs for as long as it lives.
class Leave {
 public:
  // `runTasks`: V8's tasks may run when it enters again (not inside an interrupt).
  Leave(Isolate* isolate, Vu* vu, bool runTasks = true) : vu_(vu), runTasks_(runTasks) {
    vu->group->current = nullptr;
    unlocker_.emplace(isolate);
    host->inside--;
  }
  ~Leave() {
    ParkIfExiting();
    // Ending: said at once, not after the lock another VU may hold for long (its init, say).
    if (vu_->terminating && !vu_->outOfMemory) ReportExit(vu_, "terminated");
    WillWait(vu_->group);
    unlocker_.reset();
    Entered(vu_->group, vu_, runTasks_);
  }

 private:
  Vu* vu_;
  bool runTasks_;
  std::optional<v8::Unlocker> unlocker_;
};

// Lets a VU waiting for the isolate in (up to 5 ms for one to take the lock), then takes it back.
void LetOneIn(Isolate* isolate, Vu* vu, bool runTasks) {
  Group* group = vu->group;
  const long seen = group->entries;
  Leave leave(isolate, vu, runTasks);
  const auto giveUp = Clock::now() + std::chrono::milliseconds(5);
  while (group->entries == seen && Clock::now() < giveUp) std::this_thread::yield();
}

// An interrupt, on the thread that holds the isolate between two steps of its JavaScript: ends the VU
// that must end, or lets a waiting VU in when the one holding the isolate made no k6 call for a whole
// tick after it was asked to yield. No V8 task runs inside it (those run nested in an interrupt are
// what crashed a 1,000-VU start about once in six runs).
void OnInterrupt(Isolate* isolate, void* data) {
  auto* group = static_cast<Group*>(data);
  Vu* vu = group->current;
  if (vu == nullptr || !vu->inScript) return;
  if (vu->terminating) {
    isolate->TerminateExecution();
    return;
  }
  if (group->waiting > 0 && group->yieldAsked.exchange(false)) LetOneIn(isolate, vu, false);
}

// Called by a VU's natives that run often (the clock, a post): when the watchdog saw other VUs wait
// for the isolate a whole tick, lets one in, then goes on.
void YieldIfAsked(Isolate* isolate, Vu* vu) {
  Group* group = vu->group;
  if (group->yieldAsked.exchange(false) && group->waiting > 0) LetOneIn(isolate, vu, true);
}

// Names this thread for top, perf and /proc (15 characters at most): Linux only.
void NameThread(const char* name) {
#ifdef __linux__
  pthread_setname_np(pthread_self(), name);
#else
  (void)name;
#endif
}

// Every 10 ms: a group whose isolate was held the whole tick while others waited is asked to yield,
// and one held by a VU that must end is interrupted.
void Watchdog() {
  NameThread("loadlab watch");
  while (!host->exiting) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::lock_guard<std::mutex> lock(host->groupsMutex);
    for (Group* group : host->groups) {
      Vu* vu = group->current;
      const long entries = group->entries;
      const bool held = vu != nullptr && group->waiting > 0 && entries == group->entriesSeen;
      group->entriesSeen = entries;
      // Asked a tick ago and no k6 call came to yield at: interrupted.
      if ((held && group->yieldAsked.exchange(true)) || (vu != nullptr && vu->terminating))
        group->isolate->RequestInterrupt(OnInterrupt, group);
    }
  }
}

// Near the isolate's heap limit: the VU that allocates ends (out of memory) and the limit is raised
// for it to unwind; its siblings go on, and the limit is restored once it ended.
size_t NearHeapLimit(void* data, size_t current, size_t initial) {
  auto* group = static_cast<Group*>(data);
  Vu* vu = group->current;
  if (vu != nullptr) {
    vu->outOfMemory = true;
    vu->terminating = true;
  }
  group->isolate->TerminateExecution();
  return current + initial / 2;
}

// Where an isolate keeps its group (Isolate::GetData).
constexpr uint32_t kGroupSlot = 0;

// V8 tells of a promise rejected with no handler, and of a handler added to one later: the VU whose
// thread holds the isolate keeps the first until its next report (as Node keeps them until the end of
// its tick) and forgets it on the second.
void OnPromiseReject(v8::PromiseRejectMessage message) {
  Local<v8::Promise> promise = message.GetPromise();
  Isolate* isolate = promise->GetIsolate();
  Vu* vu = static_cast<Group*>(isolate->GetData(kGroupSlot))->current;
  if (vu == nullptr) return;
  if (message.GetEvent() == v8::kPromiseRejectWithNoHandler) {
    vu->rejected.emplace_back(v8::Global<v8::Promise>(isolate, promise),
                              v8::Global<Value>(isolate, message.GetValue()));
  } else if (message.GetEvent() == v8::kPromiseHandlerAddedAfterReject) {
    for (auto it = vu->rejected.begin(); it != vu->rejected.end(); ++it)
      if (it->first == promise) {
        vu->rejected.erase(it);
        break;
      }
  }
}

void MakeIsolate(Group* group) {
  Isolate::CreateParams params;
  group->allocator.reset(v8::ArrayBuffer::Allocator::NewDefaultAllocator());
  params.array_buffer_allocator = group->allocator.get();
  params.constraints.ConfigureDefaultsFromHeapSize(0, group->heapBytes);
  Isolate* isolate;
  {
    std::lock_guard<std::mutex> lock(platformMutex);
    isolate = Isolate::Allocate();
    host->platform->RegisterIsolate(isolate, &group->delegate);
  }
  Isolate::Initialize(isolate, params);
  isolate->SetData(kGroupSlot, group);
  isolate->AddNearHeapLimitCallback(NearHeapLimit, group);
  isolate->SetPromiseRejectCallback(OnPromiseReject);
  group->isolate = isolate;
  std::lock_guard<std::mutex> lock(host->groupsMutex);
  host->groups.push_back(group);
}

// The group's isolate, once no VU is in it and none will join. Disposed before it leaves the platform:
// V8 13 (Node 24) asks the platform for its task runner while it disposes.
void DisposeIsolate(Group* group) {
  {
    std::lock_guard<std::mutex> lock(host->groupsMutex);
    for (auto it = host->groups.begin(); it != host->groups.end(); ++it)
      if (*it == group) {
        host->groups.erase(it);
        break;
      }
  }
  {
    Locker locker(group->isolate);
    group->compiled.Reset();
  }
  group->delegate.tasks->Clear();
  std::lock_guard<std::mutex> lock(platformMutex);
  group->isolate->Dispose();
  host->platform->UnregisterIsolate(group->isolate);
  group->isolate = nullptr;
}

// Whether the group is done with (its isolate disposed): the last of its VUs ended and none will join.
bool GroupDone(Group* group) {
  std::lock_guard<std::mutex> lock(group->mutex);
  if (group->disposed || !group->closed || group->ended < group->started) return false;
  group->disposed = true;
  return true;
}

// ---- to the main thread ----

void Deliver(Message message) {
  {
    std::lock_guard<std::mutex> lock(host->queueMutex);
    host->queue.push_back(std::move(message));
  }
  uv_async_send(&host->async);
}

// Tells the main thread the VU ended, once: it runs no more of its JavaScript from now on.
void ReportExit(Vu* vu, const std::string& reason) {
  if (!vu->exitReported.exchange(true)) Deliver(Message{vu, "exit", nullptr, false, reason});
}

// ---- a VU's natives ----

Vu* VuOf(const FunctionCallbackInfo<Value>& info) { return static_cast<Vu*>(info.Data().As<External>()->Value()); }

void ThrowType(Isolate* isolate, const char* message) {
  isolate->ThrowException(v8::Exception::TypeError(String::NewFromUtf8(isolate, message).ToLocalChecked()));
}

bool Send(const FunctionCallbackInfo<Value>& info, bool needsAnswer) {
  Isolate* isolate = info.GetIsolate();
  Vu* vu = VuOf(info);
  if (!info[0]->IsString()) {
    ThrowType(isolate, "a host call's kind is a string");
    return false;
  }
  std::unique_ptr<Bytes> value = Serialize(isolate, isolate->GetCurrentContext(), info[1]);
  if (!value) return false;
  Deliver(Message{vu, *String::Utf8Value(isolate, info[0]), std::move(value), needsAnswer, ""});
  return true;
}

void NativePost(const FunctionCallbackInfo<Value>& info) {
  if (Send(info, false)) YieldIfAsked(info.GetIsolate(), VuOf(info));
}

void NativeCall(const FunctionCallbackInfo<Value>& info) {
  Isolate* isolate = info.GetIsolate();
  Vu* vu = VuOf(info);
  if (!Send(info, true)) return;
  std::unique_ptr<Bytes> answer;
  bool ok = false;
  {
    Leave leave(isolate, vu);
    std::unique_lock<std::mutex> lock(vu->mutex);
    vu->wake.wait(lock, [vu] { return vu->answered || vu->terminating; });
    if (!vu->answered) return;  // ending: Leave's end terminates the VU's JavaScript
    vu->answered = false;
    answer = std::move(vu->answer);
    ok = vu->answerOk;
  }
  Local<Context> context = isolate->GetCurrentContext();
  Local<Value> value;
  if (!Deserialize(isolate, context, *answer).ToLocal(&value)) return;
  Local<Value> pair[] = {v8::Boolean::New(isolate, ok), value};
  info.GetReturnValue().Set(v8::Array::New(isolate, pair, 2));
}

void NativeHrtime(const FunctionCallbackInfo<Value>& info) {
  Isolate* isolate = info.GetIsolate();
  YieldIfAsked(isolate, VuOf(info));
  const uint64_t now = uv_hrtime();
  Local<Value> parts[] = {v8::Number::New(isolate, static_cast<double>(now / 1000000000)),
                          v8::Number::New(isolate, static_cast<double>(now % 1000000000))};
  info.GetReturnValue().Set(v8::Array::New(isolate, parts, 2));
}

void NativeWait(const FunctionCallbackInfo<Value>& info) {
  Isolate* isolate = info.GetIsolate();
  Vu* vu = VuOf(info);
  if (!info[0]->IsInt32Array() || !info[1]->IsUint32() || !info[2]->IsInt32() || !info[3]->IsNumber()) {
    ThrowType(isolate, "wait(int32Array, index, expected, ms)");
    return;
  }
  Local<v8::Int32Array> array = info[0].As<v8::Int32Array>();
  const uint32_t index = info[1].As<v8::Uint32>()->Value();
  if (index >= array->Length()) {
    ThrowType(isolate, "wait: index out of range");
    return;
  }
  std::shared_ptr<v8::BackingStore> store = array->Buffer()->GetBackingStore();
  auto* slot = reinterpret_cast<std::atomic<int32_t>*>(static_cast<uint8_t*>(store->Data()) +
                                                       array->ByteOffset() + index * sizeof(int32_t));
  const int32_t expected = info[2].As<v8::Int32>()->Value();
  const double ms = info[3].As<v8::Number>()->Value();
  const char* result = "ok";
  {
    Leave leave(isolate, vu);
    std::unique_lock<std::mutex> lock(vu->mutex);
    if (slot->load() != expected) {
      result = "not-equal";
    } else {
      const uint64_t seen = vu->wakes;
      const auto until = Clock::now() + std::chrono::microseconds(static_cast<int64_t>(ms > 0 ? ms * 1000 : 0));
      const bool woken =
          vu->wake.wait_until(lock, until, [vu, seen] { return vu->wakes != seen || vu->terminating; });
      if (!woken) result = "timed-out";
    }
  }
  info.GetReturnValue().Set(String::NewFromUtf8(isolate, result).ToLocalChecked());
}

// The reasons of the promises the VU left rejected with no handler, taken.
Local<v8::Array> TakeRejected(Isolate* isolate, Vu* vu) {
  std::vector<Local<Value>> reasons;
  for (auto& entry : vu->rejected) reasons.push_back(entry.second.Get(isolate));
  vu->rejected.clear();
  return v8::Array::New(isolate, reasons.data(), reasons.size());
}

// rejections(): runs the VU's promise jobs, then takes what they left rejected with no handler; null
// from inside a promise job, where the jobs queued cannot run yet.
void NativeRejections(const FunctionCallbackInfo<Value>& info) {
  Isolate* isolate = info.GetIsolate();
  Vu* vu = VuOf(info);
  if (vu->microtasks->IsRunningMicrotasks()) {
    info.GetReturnValue().SetNull();
    return;
  }
  vu->microtasks->PerformCheckpoint(isolate);
  info.GetReturnValue().Set(TakeRejected(isolate, vu));
}

Local<Object> Natives(Isolate* isolate, Local<Context> context, Vu* vu) {
  Local<External> data = External::New(isolate, vu);
  Local<Object> natives = Object::New(isolate);
  auto set = [&](const char* name, v8::FunctionCallback callback) {
    natives
        ->Set(context, String::NewFromUtf8(isolate, name).ToLocalChecked(),
              v8::Function::New(context, callback, data).ToLocalChecked())
        .Check();
  };
  set("call", NativeCall);
  set("post", NativePost);
  set("hrtime", NativeHrtime);
  set("wait", NativeWait);
  set("rejections", NativeRejections);
  return natives;
}

// ---- a VU's thread ----

std::string Describe(Isolate* isolate, const v8::TryCatch& caught) {
  Local<Value> stack;
  if (caught.StackTrace(isolate->GetCurrentContext()).ToLocal(&stack) && stack->IsString())
    return *String::Utf8Value(isolate, stack);
  return *String::Utf8Value(isolate, caught.Exception());
}

// The VUs' code compiled for their isolate, once per group.
MaybeLocal<v8::UnboundScript> Compiled(Isolate* isolate, Group* group) {
  if (group->compiled.IsEmpty()) {
#if V8_MAJOR_VERSION >= 12
    v8::ScriptOrigin origin(Text(isolate, group->filename));
#else
    v8::ScriptOrigin origin(isolate, Text(isolate, group->filename));
#endif
    v8::ScriptCompiler::CachedData* cached =
        group->cache ? new v8::ScriptCompiler::CachedData(static_cast<const uint8_t*>(group->cache->Data()),
                                                          static_cast<int>(group->cache->ByteLength()))
                     : nullptr;  // BufferNotOwned: the Source deletes the CachedData, not the bytes
    v8::ScriptCompiler::Source source(Text(isolate, group->code), origin, cached);
    Local<v8::UnboundScript> script;
    // A cache V8 rejects (another V8, other flags) is ignored by it: the code is compiled as without.
    const auto options = cached ? v8::ScriptCompiler::kConsumeCodeCache : v8::ScriptCompiler::kNoCompileOptions;
    if (!v8::ScriptCompiler::CompileUnboundScript(isolate, &source, options).ToLocal(&script)) return {};
    group->cache.reset();
    group->compiled.Reset(isolate, script);
    // V8 holds the source now.
    std::string().swap(group->code);
  }
  return group->compiled.Get(isolate);
}

// V8's code cache of the VUs' code as this isolate has compiled it by now (the functions the VU ran
// included), posted to the main thread as a 'codeCache' message: an ArrayBuffer, empty if V8 made none.
void SendCodeCache(Isolate* isolate, Local<Context> context, Vu* vu) {
  HandleScope handles(isolate);
  std::unique_ptr<v8::ScriptCompiler::CachedData> cache(
      v8::ScriptCompiler::CreateCodeCache(vu->group->compiled.Get(isolate)));
  const size_t size = cache ? static_cast<size_t>(cache->length) : 0;
  Local<v8::ArrayBuffer> buffer = v8::ArrayBuffer::New(isolate, size);
  if (size > 0) memcpy(buffer->GetBackingStore()->Data(), cache->data, size);
  std::unique_ptr<Bytes> value = Serialize(isolate, context, buffer);
  if (value) Deliver(Message{vu, "codeCache", std::move(value), false, ""});
}

// Hands the VU what its last turn left rejected with no handler, in a dispatch of its own
// ({ rejections }), as Node reports them at the end of a tick; false if that failed.
bool ReportRejected(Isolate* isolate, Vu* vu, Local<Context> context, Local<v8::Function> dispatch) {
  while (!vu->rejected.empty()) {
    HandleScope handles(isolate);
    Local<Object> report = Object::New(isolate);
    if (report->Set(context, Text(isolate, "rejections"), TakeRejected(isolate, vu)).IsNothing()) return false;
    Local<Value> argument = report;
    InScript running(vu);
    if (dispatch->Call(context, v8::Undefined(isolate), 1, &argument).IsEmpty()) return false;
    vu->microtasks->PerformCheckpoint(isolate);
    if (vu->terminating) return false;
  }
  return true;
}

// Runs the VU's code in its context, then its dispatches until it is closed or must end; the reason
// it ended ('' closed, 'terminated', 'oom', or an error's text).
std::string RunInContext(Isolate* isolate, Vu* vu, Local<Context> context) {
  v8::TryCatch caught(isolate);
  auto failed = [&]() -> std::string {
    if (vu->outOfMemory) return "oom";
    if (caught.HasTerminated() || vu->terminating) return "terminated";
    return caught.HasCaught() ? Describe(isolate, caught) : "the VU's code failed";
  };
  Local<v8::Function> dispatch;
  {
    HandleScope handles(isolate);
    Local<Value> data;
    if (!Deserialize(isolate, context, *vu->data).ToLocal(&data) || !data->IsObject()) return failed();
    vu->data.reset();
    Local<Object> api = data.As<Object>();
    if (api->Set(context, Text(isolate, "native"), Natives(isolate, context, vu)).IsNothing() ||
        context->Global()->Set(context, Text(isolate, "$loadlab"), api).IsNothing())
      return failed();
    Local<v8::UnboundScript> script;
    if (!Compiled(isolate, vu->group).ToLocal(&script)) return failed();
    InScript running(vu);
    if (script->BindToCurrentContext()->Run(context).IsEmpty()) return failed();
    vu->microtasks->PerformCheckpoint(isolate);
    if (caught.HasTerminated() || vu->terminating) return failed();
  }
  Local<Value> entry;
  Local<Value> function;
  if (!context->Global()->Get(context, Text(isolate, "$loadlabVu")).ToLocal(&entry) || !entry->IsObject() ||
      !entry.As<Object>()->Get(context, Text(isolate, "dispatch")).ToLocal(&function) || !function->IsFunction())
    return caught.HasCaught() ? failed() : "the VU's code set no $loadlabVu.dispatch";
  dispatch = function.As<v8::Function>();
  for (;;) {
    std::unique_ptr<Bytes> task;
    bool cacheWanted = false;
    {
      Leave leave(isolate, vu);
      std::unique_lock<std::mutex> lock(vu->mutex);
      vu->wake.wait(
          lock, [vu] { return !vu->tasks.empty() || vu->closed || vu->terminating || vu->cacheWanted; });
      if (vu->terminating) return failed();
      std::swap(cacheWanted, vu->cacheWanted);
      if (vu->tasks.empty() && !cacheWanted) {
        ReportExit(vu, "");  // closed between dispatches
        return "";
      }
      if (!vu->tasks.empty()) {
        task = std::move(vu->tasks.front());
        vu->tasks.pop_front();
      }
    }
    vu->group->delegate.tasks->RunDue(false);  // no JavaScript on this thread's stack here
    if (cacheWanted) SendCodeCache(isolate, context, vu);
    if (!task) continue;
    HandleScope handles(isolate);
    Local<Value> value;
    if (caught.HasTerminated() || vu->terminating || !Deserialize(isolate, context, *task).ToLocal(&value))
      return failed();
    {
      InScript running(vu);
      if (dispatch->Call(context, v8::Undefined(isolate), 1, &value).IsEmpty()) return failed();
      vu->microtasks->PerformCheckpoint(isolate);
    }
    if (caught.HasTerminated() || vu->terminating || !ReportRejected(isolate, vu, context, dispatch))
      return failed();
  }
}

void RunVu(Vu* vu) {
  NameThread("loadlab VU");
#ifdef __linux__
  // A VU the main thread wakes with its answer does not preempt the main thread (Linux's SCHED_BATCH
  // takes the wake-up preference away): the main thread, which does every VU's I/O, goes on with the
  // answers and requests it has, where it was switched out about once every three requests. 50 busy
  // VUs made 7-17 % more requests per second (bench/MEASUREMENTS.md).
  sched_param param{};
  pthread_setschedparam(pthread_self(), SCHED_BATCH, &param);
#endif
  Group* group = vu->group;
  ParkIfExiting();
  if (vu->terminating) ReportExit(vu, "terminated");  // ended before it began
  WillWait(group);  // counted inside from here: making the isolate too
  {
    std::lock_guard<std::mutex> lock(group->mutex);
    if (group->isolate == nullptr) MakeIsolate(group);
  }
  Isolate* isolate = group->isolate;
  std::string reason;
  {
    Locker locker(isolate);
    Entered(group, vu);
    {
      Isolate::Scope isolateScope(isolate);
      HandleScope handles(isolate);
      // Each VU runs its own promise jobs, at its own checkpoints: the isolate's default queue would
      // run one VU's jobs on whichever thread checked it next.
      std::unique_ptr<v8::MicrotaskQueue> microtasks =
          v8::MicrotaskQueue::New(isolate, v8::MicrotasksPolicy::kExplicit);
      Local<Context> context = Context::New(isolate, nullptr, {}, {}, {}, microtasks.get());
      vu->microtasks = microtasks.get();
      if (context.IsEmpty()) {
        reason = vu->terminating ? "terminated" : "V8 could not make the VU's context";
      } else {
        Context::Scope contextScope(context);
        reason = RunInContext(isolate, vu, context);
      }
      // Its handles go with the isolate's lock held; the queue goes with this scope.
      vu->rejected.clear();
      vu->microtasks = nullptr;
      // A termination asked for this VU and not yet seen must not reach the next VU to run.
      isolate->CancelTerminateExecution();
    }
    if (vu->outOfMemory) {
      // The VU's context is gone: its heap is collected, then the limit raised for it put back.
      Isolate::Scope isolateScope(isolate);
      isolate->LowMemoryNotification();
      isolate->RemoveNearHeapLimitCallback(NearHeapLimit, group->heapBytes);
      isolate->AddNearHeapLimitCallback(NearHeapLimit, group);
    }
    group->current = nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(group->mutex);
    group->ended++;
  }
  // Still counted inside: an exit that began meanwhile waits for the disposal (which would crash in
  // V8's platform torn down under it), and one that began before leaves the isolate to the process.
  if (!host->exiting && GroupDone(group)) DisposeIsolate(group);
  host->inside--;
  ParkIfExiting();
  ReportExit(vu, reason);
}

// ---- the main thread's side ----

void OnMainThread(uv_async_t*) {
  Isolate* isolate = host->isolate;
  HandleScope handles(isolate);
  Local<Context> context = host->context.Get(isolate);
  Context::Scope contextScope(context);
  std::deque<Message> batch;
  {
    std::lock_guard<std::mutex> lock(host->queueMutex);
    batch.swap(host->queue);
  }
  if (batch.empty()) return;
  // Promise jobs and process.nextTick callbacks the receivers queue run when this scope ends.
  node::CallbackScope callbackScope(isolate, host->resource.Get(isolate), {0, 0});
  for (Message& message : batch) {
    HandleScope inner(isolate);
    v8::TryCatch caught(isolate);
    Local<Value> value;
    if (message.value) {
      if (!Deserialize(isolate, context, *message.value).ToLocal(&value)) value = v8::Undefined(isolate);
    } else {
      value = Text(isolate, message.exitReason);
    }
    Local<Value> args[] = {Text(isolate, message.kind), value, v8::Boolean::New(isolate, message.needsAnswer)};
    Vu* vu = message.vu;
    Local<v8::Function> receive = vu->receive.Get(isolate);
    if (!message.value) {
      vu->receive.Reset();
      if (--host->liveVus == 0) uv_unref(reinterpret_cast<uv_handle_t*>(&host->async));
    }
    if (receive->Call(context, v8::Undefined(isolate), 3, args).IsEmpty() && caught.HasCaught() &&
        !caught.HasTerminated())
      fprintf(stderr, "loadlab: a VU message's receiver threw: %s\n", Describe(isolate, caught).c_str());
  }
}

template <typename T>
T* Unwrap(Local<Value> value) {
  if (!value->IsObject()) return nullptr;
  Local<Object> object = value.As<Object>();
  if (object->InternalFieldCount() < 1) return nullptr;
  return static_cast<T*>(object->GetAlignedPointerFromInternalField(0));
}

// Allocated once and never freed: a static Global's destructor would run after V8 is gone at exit.
v8::Global<v8::ObjectTemplate>* handleTemplate = nullptr;

Local<Object> Wrap(Isolate* isolate, Local<Context> context, void* pointer) {
  Local<Object> object = handleTemplate->Get(isolate)->NewInstance(context).ToLocalChecked();
  object->SetAlignedPointerInInternalField(0, pointer);
  return object;
}

void Init(Isolate* isolate, Local<Context> context) {
  if (host != nullptr) return;
  host = new Host();  // lives to the process's end, as the VU threads may
  host->isolate = isolate;
  host->platform = node::GetMultiIsolatePlatform(node::GetCurrentEnvironment(context));
  host->context.Reset(isolate, context);
  host->resource.Reset(isolate, Object::New(isolate));
  uv_async_init(node::GetCurrentEventLoop(isolate), &host->async, OnMainThread);
  uv_unref(reinterpret_cast<uv_handle_t*>(&host->async));
  Local<v8::ObjectTemplate> wrapper = v8::ObjectTemplate::New(isolate);
  wrapper->SetInternalFieldCount(1);
  handleTemplate = new v8::Global<v8::ObjectTemplate>(isolate, wrapper);
  host->watchdog = std::thread(Watchdog);
  host->watchdog.detach();
}

double NumberField(Isolate* isolate, Local<Context> context, Local<Object> object, const char* key) {
  Local<Value> value;
  if (!object->Get(context, Text(isolate, key)).ToLocal(&value) || !value->IsNumber()) return 0;
  return value.As<v8::Number>()->Value();
}

void MakeGroup(const FunctionCallbackInfo<Value>& info) {
  Isolate* isolate = info.GetIsolate();
  Local<Context> context = isolate->GetCurrentContext();
  Init(isolate, context);
  Local<Value> code, filename;
  if (!info[0]->IsObject() || !info[0].As<Object>()->Get(context, Text(isolate, "code")).ToLocal(&code) ||
      !info[0].As<Object>()->Get(context, Text(isolate, "filename")).ToLocal(&filename) || !code->IsString() ||
      !filename->IsString())
    return ThrowType(isolate, "group({ heapMb, code, filename })");
  auto* group = new Group();  // freed with the process: a few hundred bytes per group
  group->heapBytes = static_cast<size_t>(NumberField(isolate, context, info[0].As<Object>(), "heapMb")) << 20;
  group->code = *String::Utf8Value(isolate, code);
  group->filename = *String::Utf8Value(isolate, filename);
  Local<Value> cache;
  if (info[0].As<Object>()->Get(context, Text(isolate, "cache")).ToLocal(&cache) && cache->IsArrayBuffer() &&
      cache.As<v8::ArrayBuffer>()->ByteLength() > 0)
    group->cache = cache.As<v8::ArrayBuffer>()->GetBackingStore();
  info.GetReturnValue().Set(Wrap(isolate, context, group));
}

void Start(const FunctionCallbackInfo<Value>& info) {
  Isolate* isolate = info.GetIsolate();
  Local<Context> context = isolate->GetCurrentContext();
  Group* group = Unwrap<Group>(info[0]);
  if (group == nullptr || !info[1]->IsObject())
    return ThrowType(isolate, "start(group, { data, receive })");
  Local<Object> options = info[1].As<Object>();
  Local<Value> data, receive;
  if (!options->Get(context, Text(isolate, "data")).ToLocal(&data) ||
      !options->Get(context, Text(isolate, "receive")).ToLocal(&receive))
    return;
  if (!receive->IsFunction()) return ThrowType(isolate, "start(group, { data, receive })");
  auto vu = std::make_unique<Vu>();
  vu->data = Serialize(isolate, context, data);
  if (!vu->data) return;
  {
    std::lock_guard<std::mutex> lock(group->mutex);
    if (group->closed) return ThrowType(isolate, "start: the group is closed");
    group->started++;
  }
  vu->group = group;
  vu->receive.Reset(isolate, receive.As<v8::Function>());
  if (host->liveVus++ == 0) uv_ref(reinterpret_cast<uv_handle_t*>(&host->async));
  Vu* running = vu.release();
  std::thread(RunVu, running).detach();
  info.GetReturnValue().Set(Wrap(isolate, context, running));
}

// A VU handle after its exit message: its thread is gone, and nothing it is handed is read.
Vu* VuArgument(const FunctionCallbackInfo<Value>& info) {
  Vu* vu = Unwrap<Vu>(info[0]);
  if (vu == nullptr) ThrowType(info.GetIsolate(), "not a VU handle");
  return vu;
}

// Changes, under its lock, what the VU's thread waits on, and wakes the thread to look.
template <typename Change>
void Tell(Vu* vu, Change change) {
  {
    std::lock_guard<std::mutex> lock(vu->mutex);
    change(vu);
  }
  vu->wake.notify_one();
}

// The VU handle in `info[0]` and the value in `info[index]` as V8 writes it; false (with an exception
// pending) when either is not.
bool VuAndValue(const FunctionCallbackInfo<Value>& info, int index, Vu** vu, std::unique_ptr<Bytes>* value) {
  Isolate* isolate = info.GetIsolate();
  *vu = VuArgument(info);
  if (*vu == nullptr) return false;
  *value = Serialize(isolate, isolate->GetCurrentContext(), info[index]);
  return *value != nullptr;
}

void Answer(const FunctionCallbackInfo<Value>& info) {
  Vu* vu;
  std::unique_ptr<Bytes> value;
  if (!VuAndValue(info, 2, &vu, &value)) return;
  const bool ok = info[1]->IsTrue();
  Tell(vu, [&](Vu* v) {
    v->answer = std::move(value);
    v->answerOk = ok;
    v->answered = true;
  });
}

void Dispatch(const FunctionCallbackInfo<Value>& info) {
  Vu* vu;
  std::unique_ptr<Bytes> value;
  if (!VuAndValue(info, 1, &vu, &value)) return;
  Tell(vu, [&](Vu* v) { v->tasks.push_back(std::move(value)); });
}

void WakeVu(const FunctionCallbackInfo<Value>& info) {
  if (Vu* vu = VuArgument(info)) Tell(vu, [](Vu* v) { v->wakes++; });
}

// Asks the VU for V8's code cache of its isolate's code, between its dispatches: a 'codeCache' message.
void CodeCacheOf(const FunctionCallbackInfo<Value>& info) {
  if (Vu* vu = VuArgument(info)) Tell(vu, [](Vu* v) { v->cacheWanted = true; });
}

void CloseVu(const FunctionCallbackInfo<Value>& info) {
  if (Vu* vu = VuArgument(info)) Tell(vu, [](Vu* v) { v->closed = true; });
}

void TerminateVu(const FunctionCallbackInfo<Value>& info) {
  Vu* vu = VuArgument(info);
  if (vu == nullptr) return;
  Tell(vu, [](Vu* v) { v->terminating = true; });
  // Still waiting to enter its isolate for the first time (another VU holds it): it will run none of
  // its JavaScript, so it ended.
  if (!vu->entered) ReportExit(vu, "terminated");
  // Running JavaScript: interrupted now (the watchdog asks again should another VU hold it then).
  Group* group = vu->group;
  std::lock_guard<std::mutex> lock(group->mutex);
  if (!group->disposed && group->current == vu) group->isolate->RequestInterrupt(OnInterrupt, group);
}

void CloseGroup(const FunctionCallbackInfo<Value>& info) {
  Group* group = Unwrap<Group>(info[0]);
  if (group == nullptr) return ThrowType(info.GetIsolate(), "not a group handle");
  {
    std::lock_guard<std::mutex> lock(group->mutex);
    group->closed = true;
  }
  // A group none of whose VUs started has no isolate.
  if (GroupDone(group) && group->isolate != nullptr) DisposeIsolate(group);
}

// The process is exiting (its 'exit' event): V8's platform goes next, and a VU thread still in an
// isolate then would crash the process. Every VU's JavaScript is ended, and each thread stops for good
// once out of its isolate; this waits (up to 2 s) until none is left inside one.
void Exiting(const FunctionCallbackInfo<Value>&) {
  if (host == nullptr || host->exiting) return;
  host->exiting = true;
  {
    std::lock_guard<std::mutex> lock(host->groupsMutex);
    for (Group* group : host->groups) group->isolate->TerminateExecution();
  }
  const auto giveUp = Clock::now() + std::chrono::seconds(2);
  while (host->inside > 0 && Clock::now() < giveUp) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

}  // namespace

NODE_MODULE_INIT() {
  NODE_SET_METHOD(exports, "group", MakeGroup);
  NODE_SET_METHOD(exports, "start", Start);
  NODE_SET_METHOD(exports, "answer", Answer);
  NODE_SET_METHOD(exports, "dispatch", Dispatch);
  NODE_SET_METHOD(exports, "wake", WakeVu);
  NODE_SET_METHOD(exports, "close", CloseVu);
  NODE_SET_METHOD(exports, "codeCache", CodeCacheOf);
  NODE_SET_METHOD(exports, "terminate", TerminateVu);
  NODE_SET_METHOD(exports, "closeGroup", CloseGroup);
  NODE_SET_METHOD(exports, "exiting", Exiting);
}
