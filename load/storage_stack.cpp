#include "load/storage_stack.hpp"

#include <set>
#include <utility>

namespace usbsat::load {
namespace {

/// The walk: members in the order found, each once (by block name or file identity), never more than
/// kMaxStackMembers.
class Walk {
 public:
  explicit Walk(const StackView& view) : view_(view) {
    for (const auto& [name, node] : view.blocks) by_dev_.emplace(node.dev, name);
  }

  void add_block(const std::string& name, const std::string& chain, bool below) {
    const auto it = view_.blocks.find(name);
    if (!seen_blocks_.insert(name).second || out_.size() >= kMaxStackMembers) return;
    StackMember m{name, std::nullopt, std::nullopt, chain, below};
    if (it != view_.blocks.end()) m.block = it->second.dev;
    out_.push_back(std::move(m));
  }

  void add_file(const FileId& id, const std::string& path, const std::string& chain, bool below) {
    if (!seen_files_.insert(id).second || out_.size() >= kMaxStackMembers) return;
    out_.push_back({path, std::nullopt, id, chain, below});
  }

  /// Everything the members from `from` on are built on, transitively (appended as it is found).
  void down(std::size_t from) {
    for (std::size_t i = from; i < out_.size(); ++i) {
      const StackMember m = out_[i];
      const BlockNode* n = node(m);
      if (!n) continue;
      for (const auto& s : n->slaves) add_known(s, m.chain + " → " + s + " (which it is built on)", true);
      if (!n->whole.empty())
        add_known(n->whole, m.chain + " → disk " + n->whole + " (of the partition)", true);
      if (n->backing_block)
        if (const auto b = by_dev_.find(*n->backing_block); b != by_dev_.end())
          add_known(b->second, m.chain + " → backing device " + b->second, true);
      if (n->backing_file)
        add_file(*n->backing_file, n->backing_path, m.chain + " → backing file " + n->backing_path, true);
    }
  }

  /// Everything built on the members from `from` on, transitively.
  void up(std::size_t from) {
    for (std::size_t i = from; i < out_.size(); ++i) {
      const StackMember m = out_[i];
      if (const BlockNode* n = node(m))
        for (const auto& h : n->holders) add_known(h, m.chain + " → " + h + " (built on it)", false);
      for (const auto& [name, other] : view_.blocks) {
        if (m.block && other.whole == m.name)
          add_block(name, m.chain + " → partition " + name, false);
        else if (m.block && other.backing_block == m.block)
          add_block(name, m.chain + " → loop device " + name + " over it", false);
        else if (m.block && other.backing_file && other.backing_file->dev == *m.block)
          add_block(name, m.chain + " → loop device " + name + " over " + other.backing_path + " on it",
                    false);
        else if (m.file && other.backing_file == m.file)
          add_block(name, m.chain + " → loop device " + name + " over it", false);
      }
    }
  }

  std::vector<StackMember> take() { return std::move(out_); }

 private:
  const BlockNode* node(const StackMember& m) const {
    if (!m.block) return nullptr;
    const auto it = view_.blocks.find(m.name);
    return it == view_.blocks.end() ? nullptr : &it->second;
  }
  /// Holders and slaves named in sysfs but absent from the view are garbage (or gone): skipped.
  void add_known(const std::string& name, const std::string& chain, bool below) {
    if (view_.blocks.count(name)) add_block(name, chain, below);
  }

  const StackView& view_;
  std::map<DevNum, std::string> by_dev_;
  std::set<std::string> seen_blocks_;
  std::set<FileId> seen_files_;
  std::vector<StackMember> out_;
};

}  // namespace

std::vector<StackMember> stack_closure(const StackView& view, const std::string& name) {
  Walk w(view);
  w.add_block(name, name, false);
  w.down(0);
  w.up(0);
  return w.take();
}

}  // namespace usbsat::load
