// Locking: workers take scenario indexes from the atomic `next`; each writes
// only its own slot of `results`; `progress_mutex` serialises the progress
// callback and the done count; `stop` is atomic, and so is the interrupt
// flag (SIGINT/SIGTERM: no new scenario starts).
#include "run/suite_runner.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "net/interrupt.h"
#include "net/webhook_receiver.h"
#include "run/scenario_executor.h"

namespace runner {

RunResult run_suite(const std::vector<Scenario>& scenarios, Target& target,
                    const SuiteOptions& options, const ProgressFn& progress,
                    const StartFn& started) {
  const auto start = std::chrono::steady_clock::now();
  const contracts::Profile profile = options.profile.value_or(target.default_profile());
  std::shared_ptr<const contracts::Checker> checker = contracts::Checker::embedded(profile);
  WebhookReceiver hooks;

  RunResult run;
  run.target = target.describe();
  run.profile = contracts::to_string(profile);
  run.scenarios.resize(scenarios.size());

  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex progress_mutex;
  size_t done = 0;
  // A scenario whose org answers in the package's layouts needs the lenient
  // profile (Target::scenario_profile), unless --profile chose one.
  std::shared_ptr<const contracts::Checker> lenient =
      contracts::Checker::embedded(contracts::Profile::kLenient);
  auto worker = [&] {
    for (size_t i = next++; i < scenarios.size(); i = next++) {
      std::optional<contracts::Profile> own;
      if (!options.profile) own = target.scenario_profile(scenarios[i]);
      ExecEnv env{target, hooks,
                  own == contracts::Profile::kLenient ? lenient.get() : checker.get()};
      ScenarioResult r;
      if (stop || interrupt::received()) {
        r.file = scenarios[i].file;
        r.name = scenarios[i].name;
        r.tags = scenarios[i].tags;
        r.outcome = Outcome::kSkipped;
        r.skip_reason = interrupt::received()
                            ? "not run: interrupted by " + interrupt::received_name()
                            : "not run: --fail-fast after an earlier failure";
        r.not_run = true;
      } else {
        if (started) started(scenarios[i]);
        r = run_scenario(scenarios[i], env);
        if (r.outcome == Outcome::kFailed && options.fail_fast) stop = true;
      }
      run.scenarios[i] = r;
      std::lock_guard<std::mutex> lock(progress_mutex);
      ++done;
      if (progress) progress(run.scenarios[i], done, scenarios.size());
    }
  };
  size_t jobs = target.parallel() ? static_cast<size_t>(std::max(1, options.jobs)) : 1;
  jobs = std::min(jobs, std::max<size_t>(1, scenarios.size()));
  std::vector<std::thread> threads;
  for (size_t j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  run.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  run.interrupted = interrupt::received_name();
  return run;
}

}  // namespace runner
