// Extended attributes (listxattr, getxattr, fsetxattr): Swift's Glibc module leaves out
// <sys/xattr.h>. PrintDocument's safe save copies a file's attributes onto the file that
// replaces it, as an editor saving in place would keep them.
#include <sys/xattr.h>
