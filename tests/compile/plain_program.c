#include <stdio.h>
#include <stdlib.h>
struct node { struct node *next; int v; };
static int sum(const struct node *n) { return n ? n->v + sum(n->next) : 0; }
int main(int argc, char **argv) {
  struct node c = {0, 3}, b = {&c, 2}, a = {&b, argc};
  printf("%d %s\n", sum(&a), argc > 1 ? argv[1] : "-");
  return EXIT_SUCCESS;
}
