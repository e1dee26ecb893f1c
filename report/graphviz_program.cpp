// layout_svg() through Graphviz's `dot` program instead of its library: the build where libgvc cannot be
// linked (USBSAT_GRAPHVIZ=program: the arm64 cross-build, whose host cannot install libgvc6 for two
// architectures at once). The DOT text goes to `dot -Tsvg` on its stdin; the SVG comes back on its stdout,
// the same bytes the library writes for the same Graphviz version (report_page_test compares them with the
// goldens).
#include "report/graphviz_layout.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "load/unique_fd.hpp"

extern char** environ;

namespace usbsat::report {
namespace {

struct Pipe {
  load::UniqueFd read, write;
};

Pipe make_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw LayoutError(std::string("graphviz: pipe: ") + std::strerror(errno));
  return {load::UniqueFd(fds[0]), load::UniqueFd(fds[1])};
}

/// The child, reaped however layout_svg() leaves (a throw included): its exit status, or -1.
class Child {
 public:
  explicit Child(pid_t pid) : pid_(pid) {}
  ~Child() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      wait();
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  int wait() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_;
};

/// `dot -Tsvg` with stdin, stdout and stderr on the three pipes' far ends.
Child spawn_dot(Pipe& in, Pipe& out, Pipe& err) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in.read.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out.write.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err.write.get(), 2);
  char dot[] = "dot", format[] = "-Tsvg";
  char* argv[] = {dot, format, nullptr};
  pid_t pid = -1;
  const int rc = ::posix_spawnp(&pid, "dot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw LayoutError(std::string("graphviz: cannot run dot (is graphviz installed?): ") + std::strerror(rc));
  in.read.reset();
  out.write.reset();
  err.write.reset();
  return Child(pid);
}

/// Writes `input` to `to` while reading `from_out` and `from_err` until both close: neither side can fill a
/// pipe and wait on the other.
void exchange(load::UniqueFd to, std::string_view input, int from_out, int from_err, std::string& out,
              std::string& err) {
  std::size_t written = 0;
  if (input.empty()) to.reset();
  bool out_open = true, err_open = true;
  char buffer[65536];
  while (out_open || err_open) {
    pollfd fds[3] = {{from_out, POLLIN, 0}, {from_err, POLLIN, 0}, {to ? to.get() : -1, POLLOUT, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      throw LayoutError(std::string("graphviz: poll: ") + std::strerror(errno));
    }
    if (fds[2].revents & (POLLOUT | POLLERR | POLLHUP)) {
      const ssize_t n = ::write(to.get(), input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if (n < 0 && errno != EINTR && errno != EAGAIN) written = input.size();  // dot closed its stdin early
      if (written == input.size()) to.reset();
    }
    for (int i = 0; i < 2; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLERR | POLLHUP))) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) (i == 0 ? out : err).append(buffer, static_cast<std::size_t>(n));
      if (n == 0 || (n < 0 && errno != EINTR)) (i == 0 ? out_open : err_open) = false;
    }
  }
}

}  // namespace

std::string layout_svg(std::string_view dot) {
  // A write to a `dot` that died must fail the write, not kill usbsat.
  struct sigaction ignore = {}, previous = {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  Pipe in = make_pipe(), out = make_pipe(), err = make_pipe();
  Child child = spawn_dot(in, out, err);
  std::string svg, errors;
  exchange(std::move(in.write), dot, out.read.get(), err.read.get(), svg, errors);
  const int status = child.wait();
  ::sigaction(SIGPIPE, &previous, nullptr);
  while (!errors.empty() && (errors.back() == '\n' || errors.back() == ' ')) errors.pop_back();
  // 127: the shell convention for "not found", which is what posix_spawnp's child exits with where the exec
  // error cannot travel back to the parent (under qemu-user, for one).
  if (status == 127 && svg.empty()) throw LayoutError("graphviz: cannot run dot (is graphviz installed?)");
  if (status != 0 || svg.empty())
    throw LayoutError("graphviz: dot -Tsvg failed (exit " + std::to_string(status) + ")" +
                      (errors.empty() ? "" : ": " + errors));
  return svg;
}

}  // namespace usbsat::report
