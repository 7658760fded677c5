// bench:shared-isolate's native VU host, a probe (not the runner's host): VUs are OS threads, each with
// its own V8 context, and `perIsolate` of them share one V8 isolate. A VU's blocking host call leaves
// the isolate (v8::Unlocker) while it waits, so the isolate's other VUs run meanwhile; the isolate's
// code (the VU bundle, compiled once) and its fixed costs are shared. isolated-vm holds an isolate
// while one of its calls blocks, so there one isolate can hold only one VU.
//
// A VU that runs JavaScript for long without a host call would keep its isolate from the others: with
// `slicing`, a watchdog thread interrupts it every 10 ms while others wait (Isolate::RequestInterrupt),
// and it lets one of them in before it goes on.
//
// start({ vus, perIsolate, seconds, mode, sleepMs, slicing, heapMb, bundle, loop, busyLoop }, answer, done):
//   mode "sleep": host() sleeps sleepMs on the VU's thread (a think time);
//   mode "call":  host() asks the main thread, which calls answer(vuId) and wakes the VU.
//   host() returns whether the run's time is left; `loop` runs in every VU's context after the bundle
//   and returns its iterations; `busyLoop`, when not empty, runs instead in each isolate's first VU.
//   done({ iterations, startMs, slices }) is called on the main thread at the end; startMs is when the
//   last VU made its first host call, slices how often a VU let another in.
#include <node.h>
#include <uv.h>
#include <v8.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
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
using v8::Value;

// V8 posts tasks (GC's among them) for an isolate; they run on whichever VU thread holds it next.
class TaskQueue : public v8::TaskRunner {
 public:
#if V8_MAJOR_VERSION >= 12  // Node 22 and later: V8 asks embedders to override the *Impl methods
  void PostTaskImpl(std::unique_ptr<v8::Task> task, const v8::SourceLocation&) override { Queue(std::move(task), 0); }
  void PostNonNestableTaskImpl(std::unique_ptr<v8::Task> task, const v8::SourceLocation&) override {
    Queue(std::move(task), 0);
  }
  void PostDelayedTaskImpl(std::unique_ptr<v8::Task> task, double seconds, const v8::SourceLocation&) override {
    Queue(std::move(task), seconds);
  }
  void PostIdleTaskImpl(std::unique_ptr<v8::IdleTask>, const v8::SourceLocation&) override {}
#else
  void PostTask(std::unique_ptr<v8::Task> task) override { Queue(std::move(task), 0); }
  void PostNonNestableTask(std::unique_ptr<v8::Task> task) override { Queue(std::move(task), 0); }
  void PostDelayedTask(std::unique_ptr<v8::Task> task, double seconds) override { Queue(std::move(task), seconds); }
  void PostIdleTask(std::unique_ptr<v8::IdleTask>) override {}
#endif
  bool IdleTasksEnabled() override { return false; }
  bool NonNestableTasksEnabled() const override { return true; }

  void Queue(std::unique_ptr<v8::Task> task, double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    tasks_.emplace_back(Clock::now() + std::chrono::microseconds(static_cast<long>(seconds * 1e6)),
                        std::move(task));
  }

  // Runs the tasks that are due; the caller holds the isolate.
  void RunDue() {
    std::vector<std::unique_ptr<v8::Task>> due;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      const auto now = Clock::now();
      for (auto it = tasks_.begin(); it != tasks_.end();) {
        if (it->first <= now) {
          due.push_back(std::move(it->second));
          it = tasks_.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (auto& task : due) task->Run();
  }

 private:
  std::mutex mutex_;
  std::deque<std::pair<Clock::time_point, std::unique_ptr<v8::Task>>> tasks_;
};

class PlatformDelegate : public node::IsolatePlatformDelegate {
 public:
  std::shared_ptr<v8::TaskRunner> GetForegroundTaskRunner() override { return tasks; }
  bool IdleTasksEnabled() override { return false; }
  std::shared_ptr<TaskQueue> tasks = std::make_shared<TaskQueue>();
};

struct Probe;

// Node's platform knows isolates by address: an isolate is made and registered, or disposed and
// unregistered, under this lock.
std::mutex platformMutex;

// One isolate and the bundle compiled in it, both made by the first of its VUs to start.
struct SharedIsolate {
  std::mutex mutex;
  Isolate* isolate = nullptr;
  // For the time slicing: how many VUs wait for the isolate, and how often one got it.
  std::atomic<int> waiting{0};
  std::atomic<long> entries{0};
  std::atomic<long> lettings{0};
  std::unique_ptr<v8::ArrayBuffer::Allocator> allocator;
  PlatformDelegate delegate;
  v8::Global<v8::UnboundScript> bundle;
};

struct Vu {
  Probe* probe = nullptr;
  SharedIsolate* shared = nullptr;
  int id = 0;
  bool called = false;
  double iterations = 0;
  std::mutex mutex;
  std::condition_variable wake;
  bool answered = false;
};

struct Probe {
  std::string mode;
  int perIsolate = 1;
  int sleepMs = 1000;
  bool slicing = false;
  size_t heapBytes = 0;
  std::string bundle;
  std::string loop;
  std::string busyLoop;
  std::thread watchdog;
  std::atomic<bool> over{false};
  node::MultiIsolatePlatform* platform = nullptr;
  Clock::time_point started;
  Clock::time_point deadline;
  std::vector<std::unique_ptr<SharedIsolate>> isolates;
  std::vector<std::unique_ptr<Vu>> vus;
  std::vector<std::thread> threads;
  std::atomic<int> running{0};
  std::atomic<int> waitingFirstCall{0};
  std::atomic<long> startMicros{0};
  // The calls waiting for the main thread, and its wake-up.
  uv_async_t async;
  std::mutex queueMutex;
  std::deque<Vu*> queue;
  Isolate* mainIsolate = nullptr;
  v8::Global<v8::Function> answer;
  v8::Global<v8::Function> done;
};

void MakeIsolate(Probe* probe, SharedIsolate* shared) {
  Isolate::CreateParams params;
  shared->allocator.reset(v8::ArrayBuffer::Allocator::NewDefaultAllocator());
  params.array_buffer_allocator = shared->allocator.get();
  params.constraints.ConfigureDefaultsFromHeapSize(0, probe->heapBytes);
  Isolate* isolate;
  {
    std::lock_guard<std::mutex> lock(platformMutex);
    isolate = Isolate::Allocate();
    probe->platform->RegisterIsolate(isolate, &shared->delegate);
  }
  Isolate::Initialize(isolate, params);
  shared->isolate = isolate;
}

// The bundle, compiled by the isolate's first VU in its own context: V8 12 and later (Node 22+)
// compile only in an entered context, though the script is bound to none.
Local<v8::UnboundScript> Bundle(Probe* probe, SharedIsolate* shared, Isolate* isolate) {
  if (shared->bundle.IsEmpty()) {
    v8::ScriptCompiler::Source source(
        v8::String::NewFromUtf8(isolate, probe->bundle.data(), v8::NewStringType::kNormal,
                                static_cast<int>(probe->bundle.size()))
            .ToLocalChecked());
    shared->bundle.Reset(isolate, v8::ScriptCompiler::CompileUnboundScript(isolate, &source).ToLocalChecked());
  }
  return shared->bundle.Get(isolate);
}

// Around each wait for the isolate's lock (v8::Locker, or the end of a v8::Unlocker's scope).
void WillWait(SharedIsolate* shared) { shared->waiting++; }
void Entered(SharedIsolate* shared) {
  shared->waiting--;
  shared->entries++;
}

void WaitForMainThread(Vu* vu) {
  Probe* probe = vu->probe;
  {
    std::lock_guard<std::mutex> lock(probe->queueMutex);
    probe->queue.push_back(vu);
  }
  uv_async_send(&probe->async);
  std::unique_lock<std::mutex> lock(vu->mutex);
  vu->wake.wait(lock, [vu] { return vu->answered; });
  vu->answered = false;
}

void HostCall(const FunctionCallbackInfo<Value>& info) {
  Vu* vu = static_cast<Vu*>(info.Data().As<External>()->Value());
  Probe* probe = vu->probe;
  if (!vu->called) {
    vu->called = true;
    if (--probe->waitingFirstCall == 0)
      probe->startMicros = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - probe->started).count();
  }
  bool timeLeft;
  {
    v8::Unlocker unlocker(info.GetIsolate());  // the isolate's other VUs run while this one waits
    if (probe->mode == "sleep") {
      const auto wake = Clock::now() + std::chrono::milliseconds(probe->sleepMs);
      std::this_thread::sleep_until(wake < probe->deadline ? wake : probe->deadline);
    } else {
      WaitForMainThread(vu);
    }
    timeLeft = Clock::now() < probe->deadline;
    WillWait(vu->shared);
  }
  Entered(vu->shared);
  vu->shared->delegate.tasks->RunDue();
  info.GetReturnValue().Set(timeLeft);
}

// An interrupt, on the thread that holds the isolate between two steps of its JavaScript: lets a
// waiting VU in (up to 5 ms for one to take the lock), then takes the isolate back.
void LetOneIn(Isolate* isolate, void* data) {
  auto* shared = static_cast<SharedIsolate*>(data);
  if (shared->waiting == 0) return;
  const long seen = shared->entries;
  {
    v8::Unlocker unlocker(isolate);
    const auto giveUp = Clock::now() + std::chrono::milliseconds(5);
    while (shared->entries == seen && Clock::now() < giveUp) std::this_thread::yield();
    if (shared->entries != seen) shared->lettings++;
    WillWait(shared);
  }
  Entered(shared);
}

void Watchdog(Probe* probe) {
  while (!probe->over) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    for (auto& shared : probe->isolates) {
      if (shared->isolate == nullptr || shared->waiting == 0) continue;
      shared->isolate->RequestInterrupt(LetOneIn, shared.get());
    }
  }
}

void ReportError(Isolate* isolate, const v8::TryCatch& caught, int vuId) {
  v8::String::Utf8Value message(isolate, caught.Exception());
  fprintf(stderr, "VU %d: %s\n", vuId, *message ? *message : "(no message)");
}

const std::string& LoopOf(Vu* vu) {
  const bool first = vu->id % vu->probe->perIsolate == 0;
  return first && !vu->probe->busyLoop.empty() ? vu->probe->busyLoop : vu->probe->loop;
}

void RunVu(Vu* vu) {
  Probe* probe = vu->probe;
  SharedIsolate* shared = vu->shared;
  {
    // The group's first VU makes the isolate; the others wait here for it.
    std::lock_guard<std::mutex> lock(shared->mutex);
    if (shared->isolate == nullptr) MakeIsolate(probe, shared);
  }
  Isolate* isolate = shared->isolate;
  {
    WillWait(shared);
    Locker locker(isolate);
    Entered(shared);
    Isolate::Scope isolateScope(isolate);
    HandleScope handles(isolate);
    Local<v8::ObjectTemplate> global = v8::ObjectTemplate::New(isolate);
    global->Set(isolate, "host", v8::FunctionTemplate::New(isolate, HostCall, External::New(isolate, vu)));
    Local<Context> context = Context::New(isolate, nullptr, global);
    Context::Scope contextScope(context);
    v8::TryCatch caught(isolate);
    Local<Value> iterations;
    if (Bundle(probe, shared, isolate)->BindToCurrentContext()->Run(context).IsEmpty()) {
      ReportError(isolate, caught, vu->id);
    } else if (v8::Script::Compile(context, v8::String::NewFromUtf8(isolate, LoopOf(vu).c_str()).ToLocalChecked())
                   .ToLocalChecked()
                   ->Run(context)
                   .ToLocal(&iterations)) {
      vu->iterations = iterations.As<v8::Number>()->Value();
    } else {
      ReportError(isolate, caught, vu->id);
    }
  }
  if (--probe->running == 0) uv_async_send(&probe->async);
}

void Finish(Probe* probe, Local<Context> context) {
  Isolate* main = probe->mainIsolate;
  probe->over = true;
  if (probe->watchdog.joinable()) probe->watchdog.join();
  for (auto& thread : probe->threads) thread.join();
  probe->threads.clear();
  for (auto& shared : probe->isolates) {
    {
      Locker locker(shared->isolate);
      shared->bundle.Reset();
    }
    // Disposed before it leaves the platform: V8 13 (Node 24) asks the platform for its task runner
    // while it disposes. Both under one lock, so that no isolate made meanwhile gets its address.
    std::lock_guard<std::mutex> lock(platformMutex);
    shared->isolate->Dispose();
    probe->platform->UnregisterIsolate(shared->isolate);
  }
  uv_close(reinterpret_cast<uv_handle_t*>(&probe->async), nullptr);
  Local<v8::Array> iterations = v8::Array::New(main, static_cast<int>(probe->vus.size()));
  for (size_t i = 0; i < probe->vus.size(); i++)
    iterations->Set(context, static_cast<uint32_t>(i), v8::Number::New(main, probe->vus[i]->iterations)).Check();
  Local<v8::Object> result = v8::Object::New(main);
  result->Set(context, v8::String::NewFromUtf8Literal(main, "iterations"), iterations).Check();
  double slices = 0;
  for (auto& shared : probe->isolates) slices += static_cast<double>(shared->lettings);
  result->Set(context, v8::String::NewFromUtf8Literal(main, "slices"), v8::Number::New(main, slices)).Check();
  result->Set(context, v8::String::NewFromUtf8Literal(main, "startMs"),
              v8::Number::New(main, probe->startMicros / 1000.0))
      .Check();
  Local<Value> argument = result;
  probe->done.Get(main)->Call(context, v8::Undefined(main), 1, &argument).ToLocalChecked();
}

void OnMainThread(uv_async_t* handle) {
  Probe* probe = static_cast<Probe*>(handle->data);
  Isolate* main = probe->mainIsolate;
  HandleScope handles(main);
  Local<Context> context = main->GetCurrentContext();
  std::deque<Vu*> batch;
  {
    std::lock_guard<std::mutex> lock(probe->queueMutex);
    batch.swap(probe->queue);
  }
  Local<v8::Function> answer = probe->answer.Get(main);
  for (Vu* vu : batch) {
    Local<Value> id = v8::Integer::New(main, vu->id);
    answer->Call(context, v8::Undefined(main), 1, &id).ToLocalChecked();
    {
      std::lock_guard<std::mutex> lock(vu->mutex);
      vu->answered = true;
    }
    vu->wake.notify_one();
  }
  if (probe->running == 0 && !probe->threads.empty()) Finish(probe, context);
}

void Start(const FunctionCallbackInfo<Value>& info) {
  Isolate* main = info.GetIsolate();
  Local<Context> context = main->GetCurrentContext();
  Local<v8::Object> options = info[0].As<v8::Object>();
  auto field = [&](const char* key) {
    return options->Get(context, v8::String::NewFromUtf8(main, key).ToLocalChecked()).ToLocalChecked();
  };
  auto number = [&](const char* key) { return field(key).As<v8::Number>()->Value(); };
  auto text = [&](const char* key) { return std::string(*v8::String::Utf8Value(main, field(key))); };

  auto* probe = new Probe();  // lives to the process's end
  const int vus = static_cast<int>(number("vus"));
  const int perIsolate = static_cast<int>(number("perIsolate"));
  probe->mode = text("mode");
  probe->perIsolate = perIsolate;
  probe->sleepMs = static_cast<int>(number("sleepMs"));
  probe->slicing = field("slicing")->IsTrue();
  probe->busyLoop = text("busyLoop");
  probe->heapBytes = static_cast<size_t>(number("heapMb")) * 1024 * 1024;
  probe->bundle = text("bundle");
  probe->loop = text("loop");
  probe->platform = node::GetMultiIsolatePlatform(node::GetCurrentEnvironment(context));
  probe->mainIsolate = main;
  probe->answer.Reset(main, info[1].As<v8::Function>());
  probe->done.Reset(main, info[2].As<v8::Function>());
  uv_async_init(node::GetCurrentEventLoop(main), &probe->async, OnMainThread);
  probe->async.data = probe;

  for (int i = 0; i < (vus + perIsolate - 1) / perIsolate; i++)
    probe->isolates.push_back(std::make_unique<SharedIsolate>());
  for (int i = 0; i < vus; i++) {
    auto vu = std::make_unique<Vu>();
    vu->probe = probe;
    vu->shared = probe->isolates[i / perIsolate].get();
    vu->id = i;
    probe->vus.push_back(std::move(vu));
  }
  probe->running = vus;
  probe->waitingFirstCall = vus;
  probe->started = Clock::now();
  probe->deadline = probe->started + std::chrono::milliseconds(static_cast<long>(number("seconds") * 1000));
  for (auto& vu : probe->vus) probe->threads.emplace_back(RunVu, vu.get());
  if (probe->slicing) probe->watchdog = std::thread(Watchdog, probe);
}

}  // namespace

NODE_MODULE_INIT() {
  NODE_SET_METHOD(exports, "start", Start);
}
