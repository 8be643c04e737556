// scenario-runner: replays YAML scenarios against the fake org or a sandbox.
int main() {
  return 0;
}
