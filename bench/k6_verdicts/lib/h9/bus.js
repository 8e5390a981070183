// A small event bus teams keep in a shared module: handlers registered by scripts, run on emit().
export const bus = {
  handlers: [],
  on(fn) {
    this.handlers.push(fn);
  },
  emit(name) {
    for (const h of this.handlers) h(name);
  },
};
